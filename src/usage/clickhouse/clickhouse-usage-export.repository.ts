import { Injectable } from '@nestjs/common';
import { formatCredits } from '../core/decimal-credits.js';
import type { UsageExportQuery } from '../export/usage-export.query.js';
import type { UsageExportReader, UsageExportRow } from '../core/usage-store.ports.js';
import { ClickHouseService } from './clickhouse.service.js';
import { clickHouseExportSql } from './clickhouse-export.sql.js';

interface ExportRowText {
  date: string;
  grp: string;
  grp2?: string;
  credits: string;
  request_count: string;
}

const toRow = (r: ExportRowText): UsageExportRow => ({
  date: r.date,
  group: r.grp,
  ...(r.grp2 === undefined ? {} : { subgroup: r.grp2 }),
  credits: r.credits,
  requestCount: Number(r.request_count),
});

/** The export's reads from the ClickHouse store (the rollups; never the events table). */
@Injectable()
export class ClickHouseUsageExportRepository implements UsageExportReader {
  constructor(private readonly clickhouse: ClickHouseService) {}

  /** Credits go on the wire as the exact decimal text, trailing zeros trimmed (formatCredits). */
  async jsonData(query: UsageExportQuery, orgId: string): Promise<string> {
    const { sql, params } = clickHouseExportSql(this.clickhouse.database, query, orgId);
    const rows = await this.clickhouse.rows<ExportRowText>(sql, params);
    return rows
      .map(
        (r) =>
          `{"date":"${r.date}","group":${JSON.stringify(r.grp)},` +
          (r.grp2 === undefined ? '' : `"subgroup":${JSON.stringify(r.grp2)},`) +
          `"credits":${formatCredits(r.credits)},` +
          `"requestCount":${r.request_count}}`,
      )
      .join(',');
  }

  async *stream(query: UsageExportQuery, orgId: string): AsyncGenerator<UsageExportRow[]> {
    const { sql, params } = clickHouseExportSql(this.clickhouse.database, query, orgId);
    for await (const rows of this.clickhouse.stream<ExportRowText>(sql, params)) {
      if (rows.length > 0) yield rows.map(toRow);
    }
  }
}
