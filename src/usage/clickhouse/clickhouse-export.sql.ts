import type { UsageExportQuery } from '../export/usage-export.query.js';
import { UNKNOWN_GROUP } from '../export/usage-export.repository.js';
import { GROUP_ALIASES, GROUP_COLUMNS } from '../export/usage-export.sql.js';
import {
  BUCKET_SECONDS,
  bucketWindow,
  DEFAULT_TIME_ZONE,
  offsetSegments,
} from '../core/time-zone.js';
import type { ClickHouseParam, ClickHouseParams } from './clickhouse-literals.js';

/*
 * The export's statements for the ClickHouse store: the full daily and quarter-hour rollups
 * of the DuckDB store (not its narrow ones, record 0377) and the same `unknown` = total -
 * carried rule as the DuckDB statements (usage-export.repository.ts), in the SQL both the
 * 18.x servers and current ones accept (no CTEs, joins by USING). The rollups are SummingMergeTree tables whose
 * rows of one key are added together only eventually, so every read sums what it selects.
 */

/** WHERE conditions with `{pN:Type}` placeholders and their values. */
class Filter {
  readonly params: ClickHouseParams = {};
  private readonly conditions: string[] = [];

  constructor(query: UsageExportQuery, orgId: string) {
    this.conditions.push(`org_id = ${this.placeholder(orgId, 'String')}`);
    this.conditions.push(`day >= ${this.placeholder(query.startDate, 'Date')}`);
    this.conditions.push(`day <= ${this.placeholder(query.endDate, 'Date')}`);
    this.list('product', query.products);
    this.list('feature', query.features);
    this.list('api_key_id', query.apiKeys);
    this.list('file_type', query.fileTypes);
  }

  get sql(): string {
    return this.conditions.join(' AND ');
  }

  withEquals(column: string, value: string): string {
    return [...this.conditions, `${column} = ${this.placeholder(value, 'String')}`].join(' AND ');
  }

  withMetadata(key: string, values: string[]): string {
    const extra = [`meta_key = ${this.placeholder(key, 'String')}`];
    if (values.length > 0)
      extra.push(`has(${this.placeholder(values, 'Array(String)')}, meta_value)`);
    return [...this.conditions, ...extra].join(' AND ');
  }

  placeholder(value: ClickHouseParam, type: string): string {
    const name = `p${Object.keys(this.params).length}`;
    this.params[name] = value;
    return `{${name}:${type}}`;
  }

  private list(column: string, values: string[]): void {
    if (values.length > 0)
      this.conditions.push(`has(${this.placeholder(values, 'Array(String)')}, ${column})`);
  }
}

/** Rollup columns under names no output alias reuses (ClickHouse aliases are query-wide). */
const AMOUNTS = 'credits AS row_credits, request_count AS row_requests';

/** (day, groups, row_credits, row_requests) summed per (day, groups); groups with no requests left out. */
function final(rows: string, aliases: readonly string[]): string {
  return `SELECT toString(day) AS date, ${aliases.join(', ')}, toString(sum(row_credits)) AS credits,
      toString(sum(row_requests)) AS request_count
    FROM (${rows}) GROUP BY day, ${aliases.join(', ')} HAVING sum(row_requests) > 0`;
}

/**
 * Unknown = total - carried, per day (and per value of the other grouped dimension), so
 * that groups add up to the total exactly (rule 6); `position` is the metadata value's.
 */
function withUnknown(
  carried: string,
  total: string,
  aliases: readonly string[],
  position: number,
): string {
  const others = aliases.filter((_, i) => i !== position);
  const keys = ['day', ...others].join(', ');
  const columns = aliases
    .map((alias, i) => (i === position ? `'${UNKNOWN_GROUP}' AS ${alias}` : alias))
    .join(', ');
  return final(
    `SELECT day, ${aliases.join(', ')}, row_credits, toInt64(row_requests) AS row_requests FROM (${carried})
    UNION ALL
    SELECT day, ${columns}, total_credits - carried_credits AS row_credits,
           toInt64(total_count) - toInt64(carried_count) AS row_requests
    FROM (
      SELECT ${keys}, sum(row_credits) AS total_credits, sum(row_requests) AS total_count
      FROM (${total}) GROUP BY ${keys}
    ) AS day_totals ANY LEFT JOIN (
      SELECT ${keys}, sum(row_credits) AS carried_credits, sum(row_requests) AS carried_count
      FROM (${carried}) GROUP BY ${keys}
    ) AS day_carried USING ${others.length === 0 ? keys : `(${keys})`}`,
    aliases,
  );
}

/** The full rollups as the statement reads them: tables, or quarter hours dated locally. */
interface Sources {
  full: string;
  fullMetadata: string;
}

/**
 * The org's quarter-hour rollups within the period's window, with `day` = the local date of
 * each bucket: its start plus the zone's offset in force then
 * (docs/decisions/0260-time-zones-from-quarter-hour-rollups.md).
 */
function localSources(
  database: string,
  query: UsageExportQuery,
  orgId: string,
  filter: Filter,
): Sources {
  const { transitions, offsets } = offsetSegments(query.timeZone, query.startDate, query.endDate);
  const { from, to } = bucketWindow(query.startDate, query.endDate);
  const uint = (value: number) => filter.placeholder(value, 'UInt32');
  const int = (value: number) => filter.placeholder(value, 'Int32');
  const offset =
    transitions.length === 0
      ? int(offsets[0])
      : `multiIf(${transitions
          .map((at, i) => `quarter < ${uint(at / BUCKET_SECONDS)}, ${int(offsets[i])}`)
          .join(', ')}, ${int(offsets[offsets.length - 1])})`;
  const day = `toDate(toUInt16(intDiv(toInt64(quarter) * ${BUCKET_SECONDS} + ${offset}, 86400)))`;
  const where = `org_id = ${filter.placeholder(orgId, 'String')}
      AND quarter >= ${uint(from / BUCKET_SECONDS)} AND quarter < ${uint(to / BUCKET_SECONDS)}`;
  const columns = 'org_id, product, feature, api_key_id, file_type, credits, request_count';
  return {
    full: `(SELECT ${day} AS day, ${columns} FROM ${database}.usage_quarter_hour WHERE ${where})`,
    fullMetadata: `(SELECT ${day} AS day, meta_key, meta_value, ${columns}
        FROM ${database}.usage_quarter_hour_metadata WHERE ${where})`,
  };
}

/** The export's statement (rows date, grp[, grp2], credits, request_count as text, in export order). */
export function clickHouseExportSql(
  database: string,
  query: UsageExportQuery,
  orgId: string,
): { sql: string; params: ClickHouseParams; aliases: readonly string[] } {
  const filter = new Filter(query, orgId);
  const dimensions =
    query.secondGroupBy === null ? [query.groupBy] : [query.groupBy, query.secondGroupBy];
  const aliases = GROUP_ALIASES.slice(0, dimensions.length);
  const table = (name: string) => `${database}.${name}`;
  const sources: Sources =
    query.timeZone === DEFAULT_TIME_ZONE
      ? { full: table('usage_daily'), fullMetadata: table('usage_daily_metadata') }
      : localSources(database, query, orgId, filter);
  const groups = dimensions.map((d, i) => `${GROUP_COLUMNS[d]} AS ${aliases[i]}`).join(', ');
  // Every statement reads the full rollups: ClickHouse keeps no narrow ones (one dimension,
  // or a metadata value alone) and sums a dimension's rows of a day at query time
  // (docs/decisions/0377-*).
  const sql = (() => {
    if (query.metadataKey === null) {
      return final(
        `SELECT day, ${groups}, ${AMOUNTS} FROM ${sources.full} WHERE ${filter.sql}`,
        aliases,
      );
    }
    const metadataWhere = filter.withMetadata(query.metadataKey, query.metadataValues);
    const position = dimensions.indexOf('metadata');
    const carried = `SELECT day, ${groups}, ${AMOUNTS} FROM ${sources.fullMetadata} WHERE ${metadataWhere}`;
    // Rules 7 and 8: only usage that carried the key (and one of the values, if given);
    // grouped by its values, filtering on some selects carried usage: no `unknown` bucket.
    if (position < 0 || query.metadataValues.length > 0) return final(carried, aliases);
    const others = aliases.filter((_, i) => i !== position);
    const otherColumns = dimensions
      .filter((d) => d !== 'metadata')
      .map((d, i) => `${GROUP_COLUMNS[d]} AS ${others[i]}`);
    const total = `SELECT day, ${[...otherColumns, AMOUNTS].join(', ')} FROM ${sources.full} WHERE ${filter.sql}`;
    return withUnknown(carried, total, aliases, position);
  })();
  return { sql: `${sql} ORDER BY date, ${aliases.join(', ')}`, params: filter.params, aliases };
}
