import type { DuckDBValue } from '@duckdb/node-api';
import { ApiError } from '../../common/api-error.js';
import type { GroupBy, UsageExportQuery } from './usage-export.query.js';
import { Filter } from './usage-export.filter.js';
import {
  BUCKET_SECONDS,
  bucketWindow,
  DEFAULT_TIME_ZONE,
  localDaysFitBuckets,
  offsetSegments,
} from '../core/time-zone.js';
import {
  type Bucketing,
  type FullQuarterHourTable,
  NARROW_QUARTER_HOUR_TABLE,
  narrowRowsSql,
  QUARTER_HOUR_COLUMNS,
  quarterHourMetadataRowsSql,
  quarterHourRowsSql,
  unrolledEvents,
} from '../core/quarter-hour-rollups.js';

/** The yyyy-mm-dd UTC day of an epoch second. */
function utcDay(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 10);
}

/*
 * The DuckDB export statements. UTC exports read the daily rollups; exports in another time
 * zone read the quarter-hour ones through the same statements, each bucket dated by the
 * zone's offset in force (docs/decisions/0260-time-zones-from-quarter-hour-rollups.md).
 */

/**
 * Each grouped dimension's column in the full rollups (metadata: the value of metadataKey),
 * the same in both stores' rollups.
 */
export const GROUP_COLUMNS: Record<GroupBy, string> = {
  product: 'product',
  feature: 'feature',
  api_key: 'api_key_id',
  file_type: 'file_type',
  metadata: 'meta_value',
};
/** Output names of the first and the second grouped value. */
export const GROUP_ALIASES = ['grp', 'grp2'] as const;

/** Bucket for usage that does not carry the metadata key (spec rule 3). */
export const UNKNOWN_GROUP = 'unknown';

/**
 * The two full rollups as the statements read them: tables, or quarter hours dated locally.
 * `unrolled`: a condition true when the org has events of the period that the sources leave
 * out (written since the last roll-up step); `false` when they leave none out.
 */
interface Sources {
  full: string;
  fullMetadata: string;
  unrolled: string;
  /** Whether the sources are the narrow quarter-hour tables (then GROUP_COLUMNS_OF_NARROW). */
  narrow: boolean;
}

const DAILY_SOURCES: Sources = {
  full: 'usage_daily',
  fullMetadata: 'usage_daily_metadata',
  unrolled: 'false',
  narrow: false,
};

/**
 * Each grouped dimension's column in the narrow quarter-hour sources: `full` holds one
 * dimension's values (the grouped one, or `product` for a metadata export's totals).
 */
const GROUP_COLUMNS_OF_NARROW: Record<GroupBy, string> = {
  product: 'value',
  feature: 'value',
  api_key: 'value',
  file_type: 'value',
  metadata: 'meta_value',
};

/**
 * Whether a question in a zone reads the narrow quarter-hour tables when they answer it
 * (the server always; `full-only` lets a benchmark time the full ones on the same question).
 */
export type NarrowTables = 'when-they-answer' | 'full-only';

/**
 * Whether a question in a zone can read the narrow quarter-hour rollups: one grouped
 * dimension and no filter on another (the narrow tables keep no other dimension), as the
 * narrow daily ones in UTC.
 */
function readsNarrowQuarterHours(query: UsageExportQuery): boolean {
  const filtered =
    query.products.length + query.features.length + query.apiKeys.length + query.fileTypes.length >
    0;
  return (
    query.timeZone !== DEFAULT_TIME_ZONE &&
    query.secondGroupBy === null &&
    !filtered &&
    (query.metadataKey === null || query.groupBy === 'metadata')
  );
}

/**
 * How a statement over the quarter-hour rollups covers the events written since the last
 * roll-up step: it adds them itself (`with-unrolled`), or reads the rollups alone and says
 * whether any such event of the org's period exists (`rolled-only`; the caller then runs the
 * other). Most of the time the roll-up has caught up, and the statement without the events'
 * branch costs a third to half as much to plan (docs/benchmarks.md, "Export statements
 * without the events' branch").
 */
export type UnrolledEvents = 'with-unrolled' | 'rolled-only';

/**
 * The quarter-hour rollups of the org within the period's window, with `day` = the local
 * date of each bucket: the bucket's start plus the zone's offset in force then (offsets
 * change only on quarter-hour boundaries, and a bucket of a whole hour is read only when no
 * local day starts within it, so a bucket lies within one local day).
 */
function localSources(
  query: UsageExportQuery,
  orgId: string,
  filter: Filter,
  rolledBatchId: string,
  eventsKept: boolean,
  coverage: UnrolledEvents,
  narrowTables: NarrowTables,
): Sources {
  const segments = offsetSegments(query.timeZone, query.startDate, query.endDate);
  const { transitions, offsets } = segments;
  const { from, to } = bucketWindow(query.startDate, query.endDate);
  const integer = (value: number) => `CAST(${filter.placeholder(value)} AS INTEGER)`;
  const cases = transitions
    .map((at, i) => `WHEN quarter < ${integer(at / BUCKET_SECONDS)} THEN ${integer(offsets[i])}`)
    .join(' ');
  const last = integer(offsets[offsets.length - 1]);
  const offset = cases === '' ? last : `CASE ${cases} ELSE ${last} END`;
  const day = `CAST(DATE '1970-01-01' + CAST((CAST(quarter AS BIGINT) * ${BUCKET_SECONDS} + ${offset}) // 86400 AS INTEGER) AS DATE)`;
  // The integer org key is what lets DuckDB's zone maps skip other orgs' row groups.
  const org = filter.placeholder(orgId);
  const where = `org_key = md5_number_upper(${org})
      AND quarter >= ${integer(from / BUCKET_SECONDS)} AND quarter < ${integer(to / BUCKET_SECONDS)}`;
  const days = `org_id = ${org}
      AND day >= CAST(${filter.placeholder(utcDay(from))} AS DATE)
      AND day <= CAST(${filter.placeholder(utcDay(to - 1))} AS DATE)`;
  // A zone that starts a day within an hour the rollups keep whole (an offset of other
  // years, or one adopted later) reads the org's events of the period by quarter hour.
  const fits = localDaysFitBuckets(segments, from, to);
  const narrow = fits && narrowTables === 'when-they-answer' && readsNarrowQuarterHours(query);
  const amounts = narrow
    ? 'org_id, credits, request_count'
    : 'org_id, product, feature, api_key_id, file_type, credits, request_count';
  if (!fits && !eventsKept) {
    // An export replica's snapshot holds the rollups, not the events.
    throw ApiError.badRequest(
      'TIME_ZONE_NOT_SUPPORTED',
      `timeZone ${query.timeZone} starts a day between ${query.startDate} and ${query.endDate} ` +
        'where the usage rollups keep no bucket boundary; this export replica holds only the ' +
        'rollups (the server answers it from the events)',
      { parameter: 'timeZone' },
    );
  }
  // Otherwise the rollups, plus the events written since the last roll-up step (only the
  // tail of the table past the watermark, and the org's UTC days around the period), so the
  // answer holds every acknowledged event.
  const unrolled = `${unrolledEvents(rolledBatchId)} AND ${days}`;
  const rolledOnly = fits && coverage === 'rolled-only';
  const rowsOf = (
    fullTable: FullQuarterHourTable,
    fullRows: (where: string, bucketing: Bucketing) => string,
  ) => {
    const table = narrow ? NARROW_QUARTER_HOUR_TABLE[fullTable] : fullTable;
    const rows = (where: string, bucketing: Bucketing) =>
      narrow ? narrowRowsSql(fullTable, fullRows(where, bucketing)) : fullRows(where, bucketing);
    return !fits
      ? `(${rows(days, 'quarter')})`
      : rolledOnly
        ? table
        : `(SELECT ${QUARTER_HOUR_COLUMNS[table]} FROM ${table} UNION ALL ${rows(unrolled, 'stored')})`;
  };
  const full = rowsOf('usage_quarter_hour', (where, bucketing) =>
    quarterHourRowsSql('usage_events', where, 1, bucketing),
  );
  const fullMetadata = rowsOf('usage_quarter_hour_metadata', (where, bucketing) =>
    quarterHourMetadataRowsSql('usage_events', where, 1, bucketing),
  );
  // Narrow: the grouped dimension's values; a metadata export's totals are `product`'s, under
  // which every request counts once.
  const dimension = narrow
    ? `dimension = ${filter.placeholder(query.groupBy === 'metadata' ? 'product' : query.groupBy)} AND `
    : '';
  const values = narrow ? 'value, ' : '';
  return {
    full: `(SELECT ${day} AS day, ${values}${amounts} FROM ${full} WHERE ${dimension}${where})`,
    fullMetadata: `(SELECT ${day} AS day, meta_key, meta_value, ${amounts}
        FROM ${fullMetadata} WHERE ${where})`,
    unrolled: rolledOnly ? `EXISTS (SELECT 1 FROM usage_events WHERE ${unrolled})` : 'false',
    narrow,
  };
}

/** The grouped dimensions, in order. */
function dimensionsOf(query: UsageExportQuery): GroupBy[] {
  return query.secondGroupBy === null ? [query.groupBy] : [query.groupBy, query.secondGroupBy];
}

function finalSelect(aliases: readonly string[]): string {
  return `SELECT strftime(day, '%Y-%m-%d') AS date, ${aliases.join(', ')},
         CAST(sum(credits) AS VARCHAR) AS credits, sum(request_count) AS request_count`;
}

/** Rows are (day, groups) with usage; callers order them (dates sort as their text). */
function finalGroup(aliases: readonly string[]): string {
  return `GROUP BY day, ${aliases.join(', ')} HAVING sum(request_count) > 0`;
}

/**
 * Unknown = total - carried, per day (and per value of the other grouped dimension), so
 * that groups add up to the total exactly (rule 6). `position` is where the metadata value
 * sits among the aliases; the total is grouped by the others.
 */
function withUnknown(
  carried: string,
  total: string,
  aliases: readonly string[],
  position: number,
): string {
  const others = aliases.filter((_, i) => i !== position);
  const keys = ['day', ...others].join(', ');
  const unknownColumns = aliases
    .map((alias, i) => (i === position ? `'${UNKNOWN_GROUP}' AS ${alias}` : `t.${alias}`))
    .join(', ');
  return `WITH carried AS (${carried}),
      total AS (${total}),
      carried_total AS (
        SELECT ${keys}, sum(credits) AS credits, sum(request_count) AS request_count
        FROM carried GROUP BY ${keys}
      ),
      unknown AS (
        SELECT t.day, ${unknownColumns}, t.credits - coalesce(c.credits, 0) AS credits,
               t.request_count - coalesce(c.request_count, 0) AS request_count
        FROM total t LEFT JOIN carried_total c USING (${keys})
      )
      ${finalSelect(aliases)} FROM (SELECT * FROM carried UNION ALL SELECT * FROM unknown)
      ${finalGroup(aliases)}`;
}

/**
 * Exports without a filter on another dimension, the dashboard's common case, read the
 * narrow rollups (one row per org, day and value of the grouped dimension or metadata
 * key); the others read the full rollups. Only UTC days of one dimension are there
 * (readsUtcDays).
 */
function buildNarrowExportSql(
  query: UsageExportQuery,
  orgId: string,
): { sql: string; params: DuckDBValue[] } | null {
  const filtered =
    query.products.length + query.features.length + query.apiKeys.length + query.fileTypes.length >
    0;
  if (!readsUtcDays(query) || query.secondGroupBy !== null) return null;
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
  const aliases = GROUP_ALIASES.slice(0, 1);
  const carried = `SELECT day, meta_value AS grp, credits, request_count FROM usage_daily_metadata_value
      WHERE ${filter.withMetadata(query.metadataKey, query.metadataValues)}`;
  if (query.metadataValues.length > 0) {
    return {
      sql: `${finalSelect(aliases)} FROM (${carried}) ${finalGroup(aliases)}`,
      params: filter.params,
    };
  }
  // Every request counts once under `product`, so its per-day sum is the day's total.
  const total = `SELECT day, sum(credits) AS credits, sum(request_count) AS request_count
      FROM usage_daily_dimension WHERE ${filter.withEquals('dimension', 'product')} GROUP BY day`;
  return { sql: withUnknown(carried, total, aliases, 0), params: filter.params };
}

/**
 * Whether the export's local days are UTC days: UTC, or a zone at offset 0 throughout the
 * period and the hours around it (Etc/UTC, GMT, Africa/Abidjan, Europe/London in winter).
 * The daily rollups then answer it exactly, as they answer UTC, instead of the quarter-hour
 * ones dated by an offset of 0.
 */
function readsUtcDays(query: UsageExportQuery): boolean {
  if (query.timeZone === DEFAULT_TIME_ZONE) return true;
  const { offsets } = offsetSegments(query.timeZone, query.startDate, query.endDate);
  return offsets.every((offset) => offset === 0);
}

/** Whether the export reads the quarter-hour rollups (then it needs their watermark). */
export function readsQuarterHours(query: UsageExportQuery): boolean {
  return !readsUtcDays(query) || query.secondGroupBy !== null;
}

/** An export statement, its parameters, and the condition of UnrolledEvents (same parameters). */
export interface ExportSql {
  sql: string;
  params: DuckDBValue[];
  aliases: readonly string[];
  /** A condition to read in the same statement: true when `sql` left events out. */
  unrolled: string;
}

/**
 * The export's rows (date, grp[, grp2], credits, request_count), unordered.
 * `rolledBatchId`: the quarter-hour rollups' watermark read before (readsQuarterHours);
 * `eventsKept`: whether the store holds the events (an export replica's snapshot does not);
 * `coverage`: whether the statement adds the events not rolled up yet (UnrolledEvents);
 * `narrowTables`: NarrowTables.
 */
export function buildExportSql(
  query: UsageExportQuery,
  orgId: string,
  rolledBatchId = '0',
  eventsKept = true,
  coverage: UnrolledEvents = 'with-unrolled',
  narrowTables: NarrowTables = 'when-they-answer',
): ExportSql {
  const dimensions = dimensionsOf(query);
  const aliases = GROUP_ALIASES.slice(0, dimensions.length);
  const narrow = buildNarrowExportSql(query, orgId);
  if (narrow !== null) return { ...narrow, aliases, unrolled: DAILY_SOURCES.unrolled };
  const filter = new Filter(query, orgId);
  // The daily full rollups are kept in day order, so an org's rows are spread over every row
  // group of the period; the quarter-hour ones are clustered by org. Two dimensions read the
  // latter also in UTC: 3-7 ms instead of 100-170 ms for the benchmark's typical org's year,
  // about even for its largest (docs/benchmarks.md, "Usage export in time zones and by two
  // dimensions").
  const sources = readsQuarterHours(query)
    ? localSources(query, orgId, filter, rolledBatchId, eventsKept, coverage, narrowTables)
    : DAILY_SOURCES;
  const { unrolled } = sources;
  const columns = sources.narrow ? GROUP_COLUMNS_OF_NARROW : GROUP_COLUMNS;
  const groups = dimensions.map((d, i) => `${columns[d]} AS ${aliases[i]}`).join(', ');
  const rows = (source: string, where: string) =>
    `${finalSelect(aliases)} FROM (
        SELECT day, ${groups}, credits, request_count FROM ${source} WHERE ${where}
      ) ${finalGroup(aliases)}`;
  if (query.metadataKey === null) {
    return { sql: rows(sources.full, filter.sql), params: filter.params, aliases, unrolled };
  }
  const metadataWhere = filter.withMetadata(query.metadataKey, query.metadataValues);
  const position = dimensions.indexOf('metadata');
  if (position < 0 || query.metadataValues.length > 0) {
    // Rules 7 and 8: only usage that carried the key (and one of the values, if given);
    // grouped by its values, filtering on some selects carried usage: no `unknown` bucket.
    const sql = rows(sources.fullMetadata, metadataWhere);
    return { sql, params: filter.params, aliases, unrolled };
  }
  // Rule 6, per value of the other dimension: per value, plus `unknown` = total - carried.
  const others = aliases.filter((_, i) => i !== position);
  const otherColumns = dimensions
    .filter((d) => d !== 'metadata')
    .map((d, i) => `${columns[d]} AS ${others[i]}`);
  const totalKeys = ['day', ...otherColumns].join(', ');
  const totalGroup = ['day', ...others].join(', ');
  const sql = withUnknown(
    `SELECT day, ${groups}, credits, request_count FROM ${sources.fullMetadata} WHERE ${metadataWhere}`,
    `SELECT ${totalKeys}, sum(credits) AS credits, sum(request_count) AS request_count
        FROM ${sources.full} WHERE ${filter.sql} GROUP BY ${totalGroup}`,
    aliases,
    position,
  );
  return { sql, params: filter.params, aliases, unrolled };
}
