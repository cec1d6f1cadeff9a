import { randomBytes } from 'node:crypto';

/** Both usage stores: the usage specs run once against each (docs/scaling.md). */
export const USAGE_STORES = ['duckdb', 'clickhouse'] as const;
/** And the ClickHouse store spread over a two-shard cluster behind `Distributed` tables. */
export type UsageStoreKind = (typeof USAGE_STORES)[number] | 'clickhouse-cluster';

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

/** The two shard servers the run started (scripts/clickhouse-shards.sh, via global setup). */
export function testClickHouseShardUrls(): string[] {
  const urls = process.env.TEST_CLICKHOUSE_SHARD_URLS;
  if (!urls) {
    throw new Error(
      'TEST_CLICKHOUSE_SHARD_URLS is not set: run the specs through jest (its global setup ' +
        'starts scripts/clickhouse-shards.sh) or scripts/test-all.sh',
    );
  }
  return urls.split(',');
}

/** The environment of an app using `store`: a private ClickHouse database, or nothing for DuckDB. */
export function usageStoreEnv(store: UsageStoreKind): Record<string, string> {
  if (store === 'duckdb') return {};
  if (store === 'clickhouse-cluster') {
    const shards = testClickHouseShardUrls();
    return {
      USAGE_STORE: 'clickhouse',
      CLICKHOUSE_URL: shards[0],
      CLICKHOUSE_DATABASE: freshClickHouseDatabase(),
      CLICKHOUSE_CLUSTER: 'docproc_shards',
      CLICKHOUSE_SHARD_URLS: shards.join(','),
    };
  }
  return {
    USAGE_STORE: 'clickhouse',
    CLICKHOUSE_URL: testClickHouseUrl(),
    CLICKHOUSE_DATABASE: freshClickHouseDatabase(),
  };
}
