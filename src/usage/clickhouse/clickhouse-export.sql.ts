import type { GroupBy, UsageExportQuery } from '../export/usage-export.query.js';
import { UNKNOWN_GROUP } from '../export/usage-export.repository.js';
import type { ClickHouseParam, ClickHouseParams } from './clickhouse-literals.js';

/*
 * The export's statements for the ClickHouse store: the same rollups, the same choice of
 * narrow or full rollup and the same `unknown` = total - carried rule as the DuckDB
 * statements (usage-export.repository.ts), in the SQL both the 18.x servers and current
 * ones accept (no CTEs, joins by USING). The rollups are SummingMergeTree tables whose
 * rows of one key are added together only eventually, so every read sums what it selects.
 */

const DIMENSION_COLUMNS: Record<Exclude<GroupBy, 'metadata'>, string> = {
  product: 'product',
  feature: 'feature',
  api_key: 'api_key_id',
  file_type: 'file_type',
};

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

  private placeholder(value: ClickHouseParam, type: string): string {
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

/** (day, grp, row_credits, row_requests) summed per (day, group); groups with no requests left out. */
function final(rows: string): string {
  return `SELECT toString(day) AS date, grp, toString(sum(row_credits)) AS credits,
      toString(sum(row_requests)) AS request_count
    FROM (${rows}) GROUP BY day, grp HAVING sum(row_requests) > 0`;
}

/** Unknown = total - carried, per day, so that groups add up to the total exactly (rule 6). */
function withUnknown(carried: string, total: string): string {
  return final(`SELECT day, grp, row_credits, toInt64(row_requests) AS row_requests FROM (${carried})
    UNION ALL
    SELECT day, '${UNKNOWN_GROUP}' AS grp, total_credits - carried_credits AS row_credits,
           toInt64(total_count) - toInt64(carried_count) AS row_requests
    FROM (
      SELECT day, sum(row_credits) AS total_credits, sum(row_requests) AS total_count
      FROM (${total}) GROUP BY day
    ) AS day_totals ANY LEFT JOIN (
      SELECT day, sum(row_credits) AS carried_credits, sum(row_requests) AS carried_count
      FROM (${carried}) GROUP BY day
    ) AS day_carried USING day`);
}

/** The export's statement (rows date, grp, credits, request_count as text, in export order). */
export function clickHouseExportSql(
  database: string,
  query: UsageExportQuery,
  orgId: string,
): { sql: string; params: ClickHouseParams } {
  const filter = new Filter(query, orgId);
  const sql = (() => {
    const filtered =
      query.products.length +
        query.features.length +
        query.apiKeys.length +
        query.fileTypes.length >
      0;
    const narrow = !filtered && (query.metadataKey === null || query.groupBy === 'metadata');
    const table = (name: string) => `${database}.${name}`;
    if (query.metadataKey === null) {
      if (narrow) {
        return final(`SELECT day, value AS grp, ${AMOUNTS} FROM ${table('usage_daily_dimension')}
          WHERE ${filter.withEquals('dimension', query.groupBy)}`);
      }
      const column = DIMENSION_COLUMNS[query.groupBy as Exclude<GroupBy, 'metadata'>];
      return final(`SELECT day, ${column} AS grp, ${AMOUNTS} FROM ${table('usage_daily')}
        WHERE ${filter.sql}`);
    }
    const metadataTable = table(narrow ? 'usage_daily_metadata_value' : 'usage_daily_metadata');
    const metadataWhere = filter.withMetadata(query.metadataKey, query.metadataValues);
    if (query.groupBy !== 'metadata') {
      // Rules 7 and 8: only usage that carried the key (and one of the values, if given).
      const column = DIMENSION_COLUMNS[query.groupBy];
      return final(`SELECT day, ${column} AS grp, ${AMOUNTS} FROM ${metadataTable}
        WHERE ${metadataWhere}`);
    }
    const carried = `SELECT day, meta_value AS grp, ${AMOUNTS} FROM ${metadataTable}
      WHERE ${metadataWhere}`;
    // Filtering on values selects usage that carried the key: no `unknown` bucket.
    if (query.metadataValues.length > 0) return final(carried);
    // Every request counts once under `product`, so its per-day sum is the day's total.
    const total = narrow
      ? `SELECT day, ${AMOUNTS} FROM ${table('usage_daily_dimension')}
          WHERE ${filter.withEquals('dimension', 'product')}`
      : `SELECT day, ${AMOUNTS} FROM ${table('usage_daily')} WHERE ${filter.sql}`;
    return withUnknown(carried, total);
  })();
  return { sql: `${sql} ORDER BY date, grp`, params: filter.params };
}
