import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SeededAccount } from '../support/accounts.js';
import { ChildApp } from '../support/child-app.js';
import { consumeAll, produce, type TestMessage } from '../support/kafka.js';
import { seededChildSetup } from '../support/seeded-child.js';
import { usageEventMix } from '../support/usage-event-mix.js';
import { refusedValues, type RefusedValue } from '../support/usage-events.js';
import {
  expectExportOfLast30Days,
  groupCaughtUp,
  kafkaAppEnv,
  waitFor,
  usageMessagesOf,
} from '../support/usage-kafka.js';

/** Enough that a stop lands mid-drain; with the default fetch sizes each batch goes to the normalizer thread. */
const BACKLOG = 100_000;
/** A backlog on one partition that one fetch takes whole: one batch, well over the thread's minimum. */
const MIXED_BACKLOG = 2_000;

/**
 * The server's own error lines. kafkajs also logs, at error level, broker answers it then
 * retries (a group coordinator still loading on a fresh broker); those are not failures.
 */
function errorLines(log: string): string[] {
  return log
    .split('\n')
    .filter((line) => line.includes('"level":50') && !line.includes('"context":"kafkajs"'));
}

let dataDir: string;
let topic: string;
let org: SeededAccount;
let otherOrg: SeededAccount;
let child: ChildApp;

beforeAll(async () => {
  const setup = await seededChildSetup('usage-graceful', ['Initech', 'Hooli']);
  ({ topic, dataDir } = setup);
  [org, otherOrg] = setup.orgs;
  child = new ChildApp(setup.buildDir, kafkaAppEnv(topic, { DATA_DIR: dataDir }));
}, 240_000);

afterAll(async () => {
  await child?.stop('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('Kafka usage ingestion through a graceful stop', () => {
  it('finishes the batches in hand when stopped mid-drain, and the restarted server counts every event once', async () => {
    const events = usageEventMix([org.orgId], BACKLOG, { prefix: 'graceful' });
    await produce(topic, usageMessagesOf(events));

    await child.start();
    await waitFor(
      'the server to write a batch',
      async () => (await child.metric(/docproc_usage_events_ingested_total (\d+)/)) > 0,
      60_000,
      10,
    );
    // A stop that lands after the drain proves nothing about the batches in hand.
    expect(await groupCaughtUp(topic, child.env.KAFKA_CONSUMER_GROUP)).toBe(false);
    expect([0, 'SIGTERM']).toContain(await child.stop('SIGTERM'));
    // Shutdown closes the normalizer thread only after the consumer finished its batches.
    expect(child.log).not.toMatch(/normalizer thread/);
    expect(errorLines(child.log)).toEqual([]);

    await child.start();
    await waitFor(
      'the group to catch up',
      () => groupCaughtUp(topic, child.env.KAFKA_CONSUMER_GROUP),
      120_000,
    );
    await expectExportOfLast30Days(child.baseUrl, org, events);
    expect([0, 'SIGTERM']).toContain(await child.stop('SIGTERM'));
  }, 300_000);

  it('dead-letters the malformed values of a batch normalized on the thread, and ingests the good ones around them', async () => {
    const good = usageEventMix([otherOrg.orgId], MIXED_BACKLOG, { prefix: 'mixed' });
    // Every refusal, and bytes that are not UTF-8 at all.
    const bad: RefusedValue[] = [
      ...refusedValues(otherOrg.orgId),
      { value: Buffer.from([0xff, 0xfe, 0x00, 0x80, 0x7b]), reason: 'malformed_json' },
    ];
    // One key, so one partition in this order; the bad values spread through the batch.
    const spacing = Math.floor(MIXED_BACKLOG / bad.length);
    const messages: TestMessage[] = good.map((e) => ({ value: JSON.stringify(e) }));
    bad.forEach((b, i) => messages.splice(i * (spacing + 1) + spacing / 2, 0, { value: b.value }));
    await produce(
      topic,
      messages.map((m) => ({ ...m, key: 'mixed' })),
    );

    await child.start();
    await waitFor(
      'the group to catch up',
      () => groupCaughtUp(topic, child.env.KAFKA_CONSUMER_GROUP),
      120_000,
    );
    const dead = await consumeAll(`${topic}.dlq`, 20_000, { atLeast: bad.length });
    expect(dead.map((d) => d.headers['docproc-dlq-reason'])).toEqual(bad.map((b) => b.reason));
    expect(dead.map((d) => d.value)).toEqual(
      bad.map((b) => (b.value === null ? null : Buffer.from(b.value))),
    );
    await expectExportOfLast30Days(child.baseUrl, otherOrg, good);
    expect([0, 'SIGTERM']).toContain(await child.stop('SIGTERM'));
    expect(errorLines(child.log)).toEqual([]);
  }, 300_000);
});
