import { Injectable } from '@nestjs/common';
import type { DuckDBValue } from '@duckdb/node-api';
import { duckdb } from '../../database/duckdb-api.js';
import { DuckDbService } from '../../database/duckdb.service.js';
import type { GroupBy, UsageExportQuery } from './usage-export.query.js';
import type { UsageExportReader, UsageExportRow } from '../usage-store.ports.js';

export type { UsageExportRow } from '../usage-store.ports.js';

const DIMENSION_COLUMNS: Record<Exclude<GroupBy, 'metadata'>, string> = {
  product: 'product',
  feature: 'feature',
  api_key: 'api_key_id',
  file_type: 'file_type',
};

/** Bucket for usage that does not carry the metadata key (spec rule 3). */
export const UNKNOWN_GROUP = 'unknown';

/** Parameterized WHERE clause over a rollup: org, period, and the repeatable filters. */
class Filter {
  readonly params: DuckDBValue[] = [];
  private readonly conditions: string[] = [];

  constructor(query: UsageExportQuery, orgId: string) {
    this.add('org_id = ?', orgId);
    this.add('day >= CAST(? AS DATE)', query.startDate);
    this.add('day <= CAST(? AS DATE)', query.endDate);
    this.list('product', query.products);
    this.list('feature', query.features);
    this.list('api_key_id', query.apiKeys);
    this.list('file_type', query.fileTypes);
  }

  /** The conditions plus `column = value`. */
  withEquals(column: string, value: DuckDBValue): string {
    return [...this.conditions, `${column} = ${this.placeholder(value)}`].join(' AND ');
  }

  withMetadata(key: string, values: string[]): string {
    const extra = [`meta_key = ${this.placeholder(key)}`];
    if (values.length > 0)
      extra.push(`list_contains(${this.placeholder(duckdb.listValue(values))}, meta_value)`);
    return [...this.conditions, ...extra].join(' AND ');
  }

  get sql(): string {
    return this.conditions.join(' AND ');
  }

  private placeholder(value: DuckDBValue): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  and(condition: string, value: DuckDBValue): void {
    this.add(condition, value);
  }

  private add(condition: string, value: DuckDBValue): void {
    this.conditions.push(condition.replace('?', this.placeholder(value)));
  }

  private list(column: string, values: string[]): void {
    if (values.length > 0)
      this.conditions.push(
        `list_contains(${this.placeholder(duckdb.listValue(values))}, ${column})`,
      );
  }
}

/**
 * The export's queries. They read the daily rollups, never the event table, so their cost
 * is bounded by (days x distinct dimension values), not by the number of events.
 */
@Injectable()
export class UsageExportRepository implements UsageExportReader {
  constructor(private readonly db: DuckDbService) {}

  /**
   * The export's `data` array as JSON text, built inside DuckDB. Converting a year of the
   * largest benchmark org's API keys (~18 k rows) to JS objects and serializing them took
   * about twice as long (bench:export). Credits print as formatCredits prints them, groups
   * through to_json (the same escapes as JSON.stringify, hex digits upper-case). The
   * aggregate orders the rows itself: the rows underneath are not sorted first.
   */
  async jsonData(query: UsageExportQuery, orgId: string): Promise<string> {
    const { sql, params } = buildExportSql(query, orgId);
    const [row] = await this.db.all<{ data: string | null }>(
      `SELECT string_agg(
          '{"date":"' || date || '","group":' || CAST(to_json(grp) AS VARCHAR) || ',"credits":' ||
          CASE WHEN contains(credits, '.') THEN rtrim(rtrim(credits, '0'), '.') ELSE credits END ||
          ',"requestCount":' || CAST(request_count AS VARCHAR) || '}',
          ',' ORDER BY date, grp) AS data
       FROM (${sql})`,
      params,
    );
    return row?.data ?? '';
  }

  async *stream(query: UsageExportQuery, orgId: string): AsyncGenerator<UsageExportRow[]> {
    const { sql, params } = buildExportSql(query, orgId);
    for await (const chunk of this.db.stream<{
      date: string;
      grp: string;
      credits: string;
      request_count: bigint;
    }>(`${sql} ORDER BY date, grp`, params)) {
      yield chunk.map((r) => ({
        date: r.date,
        group: r.grp,
        credits: r.credits,
        requestCount: Number(r.request_count),
      }));
    }
  }
}

const FINAL_SELECT = `SELECT strftime(day, '%Y-%m-%d') AS date, grp, CAST(sum(credits) AS VARCHAR) AS credits,
         sum(request_count) AS request_count`;
/** Rows are (day, group) pairs with usage; callers order them (dates sort as their text). */
const FINAL_GROUP = 'GROUP BY day, grp HAVING sum(request_count) > 0';

/** Unknown = total - carried, per day, so that groups add up to the total exactly (rule 6). */
function withUnknown(carried: string, total: string): string {
  return `WITH carried AS (${carried}),
      total AS (${total}),
      carried_total AS (
        SELECT day, sum(credits) AS credits, sum(request_count) AS request_count FROM carried GROUP BY day
      ),
      unknown AS (
        SELECT t.day, '${UNKNOWN_GROUP}' AS grp, t.credits - coalesce(c.credits, 0) AS credits,
               t.request_count - coalesce(c.request_count, 0) AS request_count
        FROM total t LEFT JOIN carried_total c USING (day)
      )
      ${FINAL_SELECT} FROM (SELECT * FROM carried UNION ALL SELECT * FROM unknown) ${FINAL_GROUP}`;
}

/**
 * Exports without a filter on another dimension, the dashboard's common case, read the
 * narrow rollups (one row per org, day and value of the grouped dimension or metadata
 * key); the others read the full rollups.
 */
function buildNarrowExportSql(
  query: UsageExportQuery,
  orgId: string,
): { sql: string; params: DuckDBValue[] } | null {
  const filtered =
    query.products.length + query.features.length + query.apiKeys.length + query.fileTypes.length >
    0;
  if (filtered || (query.metadataKey !== null && query.groupBy !== 'metadata')) return null;
  const filter = new Filter(query, orgId);
  // The integer org key is what lets DuckDB's zone maps skip other orgs' row groups.
  filter.and('org_key = md5_number_upper(?)', orgId);
  if (query.metadataKey === null) {
    // The primary key holds one row per (org, dimension, day, value): nothing to aggregate.
    // (A hash aggregate of a few dozen rows was 2 of a typical export's 6 ms in DuckDB.)
    const where = filter.withEquals('dimension', query.groupBy);
    const sql = `SELECT strftime(day, '%Y-%m-%d') AS date, value AS grp,
        CAST(credits AS VARCHAR) AS credits, request_count
      FROM usage_daily_dimension WHERE ${where} AND request_count > 0`;
    return { sql, params: filter.params };
  }
  const carried = `SELECT day, meta_value AS grp, credits, request_count FROM usage_daily_metadata_value
      WHERE ${filter.withMetadata(query.metadataKey, query.metadataValues)}`;
  if (query.metadataValues.length > 0) {
    return { sql: `${FINAL_SELECT} FROM (${carried}) ${FINAL_GROUP}`, params: filter.params };
  }
  // Every request counts once under `product`, so its per-day sum is the day's total.
  const total = `SELECT day, sum(credits) AS credits, sum(request_count) AS request_count
      FROM usage_daily_dimension WHERE ${filter.withEquals('dimension', 'product')} GROUP BY day`;
  return { sql: withUnknown(carried, total), params: filter.params };
}

/** The export's rows (date, grp, credits, request_count), unordered. */
export function buildExportSql(
  query: UsageExportQuery,
  orgId: string,
): { sql: string; params: DuckDBValue[] } {
  const narrow = buildNarrowExportSql(query, orgId);
  if (narrow !== null) return narrow;
  const filter = new Filter(query, orgId);
  if (query.metadataKey === null) {
    const column = DIMENSION_COLUMNS[query.groupBy as Exclude<GroupBy, 'metadata'>];
    const sql = `${FINAL_SELECT} FROM (
        SELECT day, ${column} AS grp, credits, request_count FROM usage_daily WHERE ${filter.sql}
      ) ${FINAL_GROUP}`;
    return { sql, params: filter.params };
  }
  const metadataWhere = filter.withMetadata(query.metadataKey, query.metadataValues);
  if (query.groupBy !== 'metadata') {
    // Rules 7 and 8: only usage that carried the key (and one of the values, if given).
    const column = DIMENSION_COLUMNS[query.groupBy];
    const sql = `${FINAL_SELECT} FROM (
        SELECT day, ${column} AS grp, credits, request_count FROM usage_daily_metadata WHERE ${metadataWhere}
      ) ${FINAL_GROUP}`;
    return { sql, params: filter.params };
  }
  if (query.metadataValues.length > 0) {
    // Filtering on values selects usage that carried the key: no `unknown` bucket.
    const sql = `${FINAL_SELECT} FROM (
        SELECT day, meta_value AS grp, credits, request_count FROM usage_daily_metadata WHERE ${metadataWhere}
      ) ${FINAL_GROUP}`;
    return { sql, params: filter.params };
  }
  // Rule 6: per value, plus `unknown` = total - carried, per day.
  const sql = withUnknown(
    `SELECT day, meta_value AS grp, credits, request_count FROM usage_daily_metadata WHERE ${metadataWhere}`,
    `SELECT day, sum(credits) AS credits, sum(request_count) AS request_count FROM usage_daily
        WHERE ${filter.sql} GROUP BY day`,
  );
  return { sql, params: filter.params };
}
