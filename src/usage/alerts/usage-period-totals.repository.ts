import { Injectable } from '@nestjs/common';
import type { DuckDBValue } from '@duckdb/node-api';
import { DuckDbService } from '../../database/duckdb.service.js';
import type { UsagePeriodTotalsReader } from '../core/usage-store.ports.js';
import type { AlertScope, PeriodTotals } from './usage-alert.types.js';

/**
 * Period totals of a usage-alert scope from the DuckDB rollups: the narrow ones for all
 * usage, one product or one metadata value, the full metadata rollup for a product and a
 * metadata value together. A few rows per day of one org, whatever the store's size.
 */
@Injectable()
export class UsagePeriodTotalsRepository implements UsagePeriodTotalsReader {
  constructor(private readonly db: DuckDbService) {}

  async periodTotals(
    orgId: string,
    firstDay: string,
    lastDay: string,
    scope: AlertScope,
  ): Promise<PeriodTotals> {
    const params: DuckDBValue[] = [orgId, firstDay, lastDay];
    const conditions = ['org_id = $1', 'day BETWEEN CAST($2 AS DATE) AND CAST($3 AS DATE)'];
    const where = (condition: string, value: string) => {
      params.push(value);
      conditions.push(`${condition} = $${params.length}`);
    };
    let table: string;
    if (scope.metadataKey !== null && scope.metadataValue !== null) {
      table = scope.product === null ? 'usage_daily_metadata_value' : 'usage_daily_metadata';
      where('meta_key', scope.metadataKey);
      where('meta_value', scope.metadataValue);
      if (scope.product !== null) where('product', scope.product);
    } else {
      table = 'usage_daily_dimension';
      conditions.push(`dimension = 'product'`);
      if (scope.product !== null) where('value', scope.product);
    }
    if (table !== 'usage_daily_metadata') conditions.push('org_key = md5_number_upper($1)');
    const [row] = await this.db.all<{ credits: string; requests: bigint | number }>(
      `SELECT CAST(coalesce(sum(credits), 0) AS VARCHAR) AS credits,
              coalesce(sum(request_count), 0) AS requests
       FROM ${table} WHERE ${conditions.join(' AND ')}`,
      params,
    );
    return { credits: row.credits, requests: Number(row.requests) };
  }
}
