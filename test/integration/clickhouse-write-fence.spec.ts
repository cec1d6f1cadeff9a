import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { APP_CONFIG } from '../../src/config/config.module.js';
import type { AppConfig } from '../../src/config/app-config.js';
import { ClickHouseService } from '../../src/usage/clickhouse/clickhouse.service.js';
import { ClickHouseUsageStoreRepository } from '../../src/usage/clickhouse/clickhouse-usage-store.repository.js';
import type { UsageEventColumns } from '../../src/usage/core/usage-event-columns.types.js';
import { UsageNormalizer } from '../../src/usage/ingestion/usage-normalizer.js';
import { MetadataKeyRepository } from '../../src/usage/metadata/metadata-key.repository.js';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import { seedAccount, type SeededAccount } from '../support/accounts.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usageEventMix } from '../support/usage-event-mix.js';
import { expectExportOfLast30Days } from '../support/usage-kafka.js';
import { usageStoreEnv } from '../support/usage-stores.js';

/*
 * The window behind a double count with several ingest processes, forced: a partition's
 * previous owner has read its batch as new (nothing stored yet) and is about to store it
 * when the group hands the partition on; the new owner stores the redelivered batch. The
 * previous owner's statement, held back until then, must store nothing (on one server and
 * on a two-shard cluster).
 */

const SOURCE = 'docproc.usage.v1:0';
const stillOwned = { sources: [SOURCE], lost: () => false };

describe.each(['clickhouse', 'clickhouse-cluster'] as const)('write fences (%s)', (store) => {
  let t: TestApp;
  let database: string;
  let acme: SeededAccount;

  beforeAll(async () => {
    const env = usageStoreEnv(store);
    database = env.CLICKHOUSE_DATABASE;
    t = await startTestApp(env);
    acme = await seedAccount(t.app, 'Acme');
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  const rule = () => t.app.get<AppConfig>(APP_CONFIG).usage.cardinality;

  async function columnsOf(events: UsageCloudEvent[]): Promise<UsageEventColumns> {
    const { columns, rejected } = await t.app
      .get(UsageNormalizer)
      .normalize(events, new Date(), true);
    expect(rejected).toEqual([]);
    return columns;
  }

  async function count(sql: string): Promise<number> {
    const [row] = await t.app.get(ClickHouseService).rows<{ n: string }>(sql);
    return Number(row.n);
  }

  it('a write begun before a rebalance stores nothing after it; the new owner stores the batch once', async () => {
    const clickhouse = t.app.get(ClickHouseService);
    const previousOwner = t.app.get(ClickHouseUsageStoreRepository);
    const newOwner = new ClickHouseUsageStoreRepository(
      clickhouse,
      t.app.get(MetadataKeyRepository),
    );
    const events = usageEventMix([acme.orgId], 400, { seed: 11, prefix: 'fence' });
    const batch = await columnsOf(events);

    let reached!: () => void;
    const atStoringStatement = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding = true;
    const stop = clickhouse.onStatement(async ({ statement }) => {
      if (holding && statement.startsWith(`INSERT INTO ${database}.usage_events `)) {
        holding = false;
        reached();
        await released;
      }
    });
    try {
      const previous = previousOwner.writeBatch([batch], rule(), stillOwned);
      // Its dedupe read is done (it found nothing stored); its storing statement waits.
      await atStoringStatement;
      newOwner.fenceEarlierWrites([SOURCE]);
      const redelivered = await newOwner.writeBatch([batch], rule(), stillOwned);
      expect(redelivered.groups).toEqual([{ inserted: events.length, duplicates: 0 }]);
      expect(redelivered.superseded).toBeUndefined();
      release();
      const late = await previous;
      expect(late.superseded).toBe(true);
    } finally {
      release();
      stop();
    }

    expect(await count(`SELECT count() AS n FROM ${database}.usage_events`)).toBe(events.length);
    expect(
      await count(
        `SELECT sum(request_count) AS n FROM ${database}.usage_daily WHERE org_id = '${acme.orgId}'`,
      ),
    ).toBe(events.length);
    await expectExportOfLast30Days(t.baseUrl, acme, events);
  }, 120_000);

  it('a batch whose partition was handed on before its write began is superseded unwritten', async () => {
    const events = usageEventMix([acme.orgId], 50, { seed: 12, prefix: 'handed-on' });
    const writer = t.app.get(ClickHouseUsageStoreRepository);
    const written = await writer.writeBatch([await columnsOf(events)], rule(), {
      sources: [SOURCE],
      lost: () => true,
    });
    expect(written.superseded).toBe(true);
    expect(
      await count(
        `SELECT count() AS n FROM ${database}.usage_events WHERE event_id LIKE 'handed-on%'`,
      ),
    ).toBe(0);
  }, 60_000);
});
