import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { DuckDbService } from '../../database/duckdb.service.js';
import type { UsageExportQuery } from './usage-export.query.js';
import type { UsageExportReader, UsageExportRow } from '../core/usage-store.ports.js';
import { buildExportSql, type ExportSql, readsQuarterHours } from './usage-export.sql.js';
import { READ_ROLLED_BATCH_ID } from '../core/quarter-hour-rollups.js';

export type { UsageExportRow } from '../core/usage-store.ports.js';
export { buildExportSql, UNKNOWN_GROUP } from './usage-export.sql.js';

/**
 * The export's queries. They read the daily rollups, never the event table, so their cost
 * is bounded by (days x distinct dimension values), not by the number of events.
 */
@Injectable()
export class UsageExportRepository implements UsageExportReader {
  /** An export replica reads a snapshot of the rollups, without the events. */
  private readonly eventsKept: boolean;

  constructor(
    private readonly db: DuckDbService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.eventsKept = config.usage.snapshots.mode !== 'export-replica';
  }

  /**
   * The export's `data` array as JSON text, built inside DuckDB. Converting a year of the
   * largest benchmark org's API keys (~18 k rows) to JS objects and serializing them took
   * about twice as long (bench:export). Credits print as formatCredits prints them, groups
   * through to_json (the same escapes as JSON.stringify, hex digits upper-case). The
   * aggregate orders the rows itself: the rows underneath are not sorted first.
   *
   * An export over the quarter-hour rollups first reads them alone, and in the same
   * statement (one snapshot) whether the org has events of the period not rolled up yet;
   * only then is the statement that adds those events run.
   */
  async jsonData(query: UsageExportQuery, orgId: string): Promise<string> {
    const rolled = await this.watermark(query);
    if (readsQuarterHours(query)) {
      const rolledOnly = buildExportSql(query, orgId, rolled, this.eventsKept, 'rolled-only');
      const [row] = await this.db.all<{ data: string | null; unrolled: boolean }>(
        `SELECT (${jsonDataSql(rolledOnly)}) AS data, ${rolledOnly.unrolled} AS unrolled`,
        rolledOnly.params,
      );
      if (row && !row.unrolled) return row.data ?? '';
    }
    const all = buildExportSql(query, orgId, rolled, this.eventsKept);
    const [row] = await this.db.all<{ data: string | null }>(jsonDataSql(all), all.params);
    return row?.data ?? '';
  }

  /**
   * The quarter-hour rollups' watermark, for exports that read them: a constant lower bound
   * on the batch ids of the events they add, so the scan reads only the events table's tail.
   */
  private async watermark(query: UsageExportQuery): Promise<string> {
    if (!readsQuarterHours(query)) return '0';
    const [row] = await this.db.all<{ rolled: string }>(READ_ROLLED_BATCH_ID);
    return row?.rolled ?? '0';
  }

  async *stream(query: UsageExportQuery, orgId: string): AsyncGenerator<UsageExportRow[]> {
    const { sql, params, aliases } = buildExportSql(
      query,
      orgId,
      await this.watermark(query),
      this.eventsKept,
    );
    for await (const chunk of this.db.stream<{
      date: string;
      grp: string;
      grp2?: string;
      credits: string;
      request_count: bigint;
    }>(`${sql} ORDER BY date, ${aliases.join(', ')}`, params)) {
      yield chunk.map((r) => ({
        date: r.date,
        group: r.grp,
        ...(r.grp2 === undefined ? {} : { subgroup: r.grp2 }),
        credits: r.credits,
        requestCount: Number(r.request_count),
      }));
    }
  }
}

/** The statement rendering the export's rows as the `data` array's JSON text (one row, `data`). */
export function jsonDataSql({ sql, aliases }: ExportSql): string {
  const subgroup = aliases.length > 1 ? `',"subgroup":' || CAST(to_json(grp2) AS VARCHAR) ||` : '';
  return `SELECT string_agg(
      '{"date":"' || date || '","group":' || CAST(to_json(grp) AS VARCHAR) || ${subgroup}
      ',"credits":' ||
      CASE WHEN contains(credits, '.') THEN rtrim(rtrim(credits, '0'), '.') ELSE credits END ||
      ',"requestCount":' || CAST(request_count AS VARCHAR) || '}',
      ',' ORDER BY date, ${aliases.join(', ')}) AS data
    FROM (${sql})`;
}
