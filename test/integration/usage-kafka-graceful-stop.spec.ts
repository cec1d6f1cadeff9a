import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { seedAccount, type SeededAccount } from '../support/accounts.js';
import { buildDist, ChildApp, freePort } from '../support/child-app.js';
import { createTestTopic, produce } from '../support/kafka.js';
import { startTestApp } from '../support/test-app.js';
import { usageEventMix } from '../support/usage-event-mix.js';
import { daysAgo } from '../support/usage-events.js';
import {
  exportMatchesReference,
  groupCaughtUp,
  kafkaAppEnv,
  waitFor,
} from '../support/usage-kafka.js';

/** Enough that a stop lands mid-drain; with the default fetch sizes each batch goes to the normalizer thread. */
const BACKLOG = 100_000;

let dataDir: string;
let topic: string;
let org: SeededAccount;
let child: ChildApp;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-graceful-'));
  const [buildDir, createdTopic] = await Promise.all([
    buildDist('kafka-graceful'),
    createTestTopic('usage-graceful', 3),
  ]);
  topic = createdTopic;
  const seeding = await startTestApp({ DATA_DIR: dataDir });
  org = await seedAccount(seeding.app, 'Initech');
  await seeding.close();
  child = new ChildApp(buildDir, await freePort(), kafkaAppEnv(topic, { DATA_DIR: dataDir }));
}, 240_000);

afterAll(async () => {
  await child?.stop('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('Kafka usage ingestion through a graceful stop', () => {
  it('finishes the batches in hand when stopped mid-drain, and the restarted server counts every event once', async () => {
    const events = usageEventMix([org.orgId], BACKLOG, { prefix: 'graceful' });
    await produce(
      topic,
      events.map((e) => ({ key: e.data.orgId, value: JSON.stringify(e) })),
    );

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
    expect(child.log).not.toMatch(/normalizer thread|"level":50/);

    await child.start();
    await waitFor(
      'the group to catch up',
      () => groupCaughtUp(topic, child.env.KAFKA_CONSUMER_GROUP),
      120_000,
    );
    const comparisons = await exportMatchesReference(child.baseUrl, org.accountKey, events, {
      orgId: org.orgId,
      startDate: daysAgo(30),
      endDate: daysAgo(0),
    });
    for (const { groupBy, actual, expected } of comparisons) {
      expect({ groupBy, rows: actual }).toEqual({ groupBy, rows: expected });
    }
    expect([0, 'SIGTERM']).toContain(await child.stop('SIGTERM'));
  }, 300_000);
});
