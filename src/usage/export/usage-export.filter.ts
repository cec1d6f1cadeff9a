import type { DuckDBValue } from '@duckdb/node-api';
import { duckdb } from '../../database/duckdb-api.js';
import type { UsageExportQuery } from './usage-export.query.js';

/** Parameterized WHERE clause over a rollup: org, period, and the repeatable filters. */
export class Filter {
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

  placeholder(value: DuckDBValue): string {
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
