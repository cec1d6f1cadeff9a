import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { clusterStatements, migrationStatements } from './clickhouse-migrations.js';

const FILE = `-- a comment
CREATE DATABASE IF NOT EXISTS {database};

CREATE TABLE IF NOT EXISTS {database}.schema_migrations (
  version String
) ENGINE = ReplacingMergeTree ORDER BY version;

CREATE TABLE IF NOT EXISTS {database}.usage_events (
  day Date,
  org_id String
) ENGINE = ReplacingMergeTree ORDER BY day;

CREATE TABLE IF NOT EXISTS {database}.key_rejections (
  org_id String,
  shard_hint UInt32
) ENGINE = ReplacingMergeTree ORDER BY org_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS {database}.daily_mv TO {database}.daily AS
SELECT org_id, day FROM {database}.usage_events;

INSERT INTO {database}.rollup_cuts SELECT 'cut', now();

SELECT sleepEachRow(3) FROM (SELECT 1 FROM {database}.usage_events LIMIT 1);

ALTER TABLE {database}.usage_events ADD COLUMN version UInt32 DEFAULT 1;

DROP TABLE IF EXISTS {database}.daily_mv;
`;

describe('clusterStatements', () => {
  const statements = clusterStatements(FILE, 'store', 'shards');

  it('puts a Distributed table over each shard table with an org (by org) or a shard hint (by it)', () => {
    expect(statements).toContain(
      `CREATE TABLE IF NOT EXISTS store.usage_events AS store_shard.usage_events
ENGINE = Distributed(shards, store_shard, usage_events, cityHash64(org_id))`,
    );
    expect(statements).toContain(
      `CREATE TABLE IF NOT EXISTS store.key_rejections AS store_shard.key_rejections
ENGINE = Distributed(shards, store_shard, key_rejections, shard_hint)`,
    );
  });

  it('keeps the database, tables without an org, ALTERs and DROPs as written, nothing else', () => {
    expect(statements).toEqual([
      'CREATE DATABASE IF NOT EXISTS store',
      `CREATE TABLE IF NOT EXISTS store.schema_migrations (
  version String
) ENGINE = ReplacingMergeTree ORDER BY version`,
      expect.stringContaining('store.usage_events AS store_shard.usage_events'),
      expect.stringContaining('store.key_rejections AS store_shard.key_rejections'),
      'ALTER TABLE store.usage_events ADD COLUMN version UInt32 DEFAULT 1',
      'DROP TABLE IF EXISTS store.daily_mv',
    ]);
  });

  it('gives the front server every table the store files make on the shards', () => {
    const directory = path.join(process.cwd(), 'sql', 'clickhouse');
    const files = fs
      .readdirSync(directory)
      .filter((name) => name.endsWith('.sql'))
      .map((name) => fs.readFileSync(path.join(directory, name), 'utf8'));
    const tables = (statements: string[]) =>
      statements.flatMap(
        (s) => /^CREATE TABLE IF NOT EXISTS db(?:_shard)?\.(\w+)/.exec(s)?.[1] ?? [],
      );
    const onShards = tables(files.flatMap((sql) => migrationStatements(sql, 'db_shard')));
    const onFront = tables(files.flatMap((sql) => clusterStatements(sql, 'db', 'c')));
    expect(onShards).toContain('usage_events');
    expect(onFront).toEqual(onShards);
  });
});
