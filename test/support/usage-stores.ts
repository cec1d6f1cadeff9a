import { randomBytes } from 'node:crypto';

/** Both usage stores: the usage specs run once against each (docs/scaling.md). */
export const USAGE_STORES = ['duckdb', 'clickhouse'] as const;
export type UsageStoreKind = (typeof USAGE_STORES)[number];

/** The real ClickHouse server the run started (scripts/clickhouse.sh, via global setup). */
export function testClickHouseUrl(): string {
  const url = process.env.TEST_CLICKHOUSE_URL;
  if (!url) {
    throw new Error(
      'TEST_CLICKHOUSE_URL is not set: run the specs through jest (its global setup starts ' +
        'scripts/clickhouse.sh) or scripts/test-all.sh',
    );
  }
  return url;
}

/** A fresh database name, so specs sharing the server never see each other's events. */
export function freshClickHouseDatabase(): string {
  return `test_${randomBytes(6).toString('hex')}`;
}

/** The environment of an app using `store`: a private ClickHouse database, or nothing for DuckDB. */
export function usageStoreEnv(store: UsageStoreKind): Record<string, string> {
  if (store === 'duckdb') return {};
  return {
    USAGE_STORE: 'clickhouse',
    CLICKHOUSE_URL: testClickHouseUrl(),
    CLICKHOUSE_DATABASE: freshClickHouseDatabase(),
  };
}
