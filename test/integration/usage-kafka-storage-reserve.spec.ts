import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FREE_SPACE_PROBE, type FreeSpaceProbe } from '../../src/database/storage-reserve.js';
import { seedAccount, type SeededAccount } from '../support/accounts.js';
import { createTestTopic, produce } from '../support/kafka.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usageEventMix } from '../support/usage-event-mix.js';
import {
  expectExportOfLast30Days,
  groupCaughtUp,
  groupOffsets,
  kafkaAppEnv,
  usageMessagesOf,
  waitFor,
} from '../support/usage-kafka.js';
import { negativeWindow } from '../support/wait.js';

const RESERVE_MB = 64;
const ROOMY = 10 * 1024 ** 3;

/**
 * Usage ingestion writes to the DuckDB file, and DuckDB that runs out of space mid-write
 * aborts the process: below DATA_DIR_MIN_FREE_MB the real consumer on a real broker stops
 * fetching (nothing is committed that was not stored), says so on /ready and /metrics, and
 * takes up every waiting event once space is back. The free space is what the spec's probe
 * says (a full volume cannot be made portably here); everything else is the server's own.
 */
describe('Kafka usage ingestion below the disk-space reserve', () => {
  let t: TestApp;
  let topic: string;
  let group: string;
  let org: SeededAccount;
  let freeBytes = ROOMY;
  const probe: FreeSpaceProbe = () => freeBytes;

  async function ingested(): Promise<number> {
    const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith('docproc_usage_events_ingested_total '));
    return line === undefined ? 0 : Number(line.split(' ')[1]);
  }

  async function pausedForStorage(): Promise<number> {
    const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith('docproc_usage_consumer_paused{reason="storage"} '));
    return line === undefined ? NaN : Number(line.split(' ')[1]);
  }

  async function consumerCheck(): Promise<{ ready: boolean; detail: Record<string, unknown> }> {
    const res = await fetch(`${t.baseUrl}/ready`);
    const body = (await res.json()) as {
      checks?: Record<string, never>;
      error?: { checks: Record<string, never> };
    };
    return (body.checks ?? body.error!.checks).usageConsumer;
  }

  beforeAll(async () => {
    topic = await createTestTopic('usage-reserve', 2);
    const env = kafkaAppEnv(topic, { DATA_DIR_MIN_FREE_MB: String(RESERVE_MB) });
    group = env.KAFKA_CONSUMER_GROUP;
    t = await startTestApp(env, { providers: [{ provide: FREE_SPACE_PROBE, useValue: probe }] });
    org = await seedAccount(t.app, 'Reserve');
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it('stops ingesting below the reserve with nothing committed unstored, and takes up every event once space is back', async () => {
    const before = usageEventMix([org.orgId], 600, { seed: 3, prefix: 'roomy' });
    await produce(topic, usageMessagesOf(before));
    await waitFor('the group to catch up', () => groupCaughtUp(topic, group));
    await expectExportOfLast30Days(t.baseUrl, org, before);
    expect(await pausedForStorage()).toBe(0);

    freeBytes = RESERVE_MB * 1024 * 1024 - 1;
    await waitFor(
      'the consumer to pause for storage',
      async () => (await pausedForStorage()) === 1,
    );
    const check = await consumerCheck();
    expect(check).toMatchObject({
      ready: false,
      detail: {
        reason: 'paused: free disk space below DATA_DIR_MIN_FREE_MB',
        pausedFor: ['storage'],
      },
    });
    const committed = await groupOffsets(topic, group);
    const ingestedBefore = await ingested();

    const during = usageEventMix([org.orgId], 600, { seed: 4, prefix: 'full' });
    await produce(topic, usageMessagesOf(during));
    // Many lag measurements (every 200 ms) and fetch cycles: a consumer that kept fetching
    // would have written and committed the new events well within it.
    await negativeWindow(4_000);
    expect(await ingested()).toBe(ingestedBefore);
    expect((await groupOffsets(topic, group)).map((p) => p.committed)).toEqual(
      committed.map((p) => p.committed),
    );
    expect(await groupCaughtUp(topic, group)).toBe(false);
    await expectExportOfLast30Days(t.baseUrl, org, before);

    freeBytes = ROOMY;
    await waitFor('the group to catch up after space came back', () => groupCaughtUp(topic, group));
    expect(await pausedForStorage()).toBe(0);
    expect((await consumerCheck()).detail).not.toHaveProperty('pausedFor');
    await expectExportOfLast30Days(t.baseUrl, org, [...before, ...during]);
  }, 120_000);
});
