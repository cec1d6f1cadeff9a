import { Injectable } from '@nestjs/common';
import type { UsagePeriodTotalsReader } from '../core/usage-store.ports.js';
import type { AlertScope, PeriodTotals } from '../alerts/usage-alert.types.js';
import { ClickHouseService } from './clickhouse.service.js';

/** Period totals of a usage-alert scope from the ClickHouse rollups (summed: rows merge late). */
@Injectable()
export class ClickHousePeriodTotalsRepository implements UsagePeriodTotalsReader {
  constructor(private readonly clickhouse: ClickHouseService) {}

  async periodTotals(
    orgId: string,
    firstDay: string,
    lastDay: string,
    scope: AlertScope,
  ): Promise<PeriodTotals> {
    const db = this.clickhouse.database;
    const params: Record<string, string> = { org: orgId, first: firstDay, last: lastDay };
    const conditions = ['org_id = {org:String}', 'day BETWEEN {first:Date} AND {last:Date}'];
    // The full daily rollups, summed (ClickHouse keeps no narrow ones, record 0377).
    let table = 'usage_daily';
    if (scope.metadataKey !== null && scope.metadataValue !== null) {
      table = 'usage_daily_metadata';
      conditions.push('meta_key = {key:String}', 'meta_value = {value:String}');
      params.key = scope.metadataKey;
      params.value = scope.metadataValue;
    }
    if (scope.product !== null) {
      conditions.push('product = {product:String}');
      params.product = scope.product;
    }
    const [row] = await this.clickhouse.rows<{ credits: string; requests: string }>(
      `SELECT toString(sum(credits)) AS credits, toString(sum(request_count)) AS requests
       FROM ${db}.${table} WHERE ${conditions.join(' AND ')}`,
      params,
    );
    return { credits: row?.credits ?? '0', requests: Number(row?.requests ?? 0) };
  }
}
