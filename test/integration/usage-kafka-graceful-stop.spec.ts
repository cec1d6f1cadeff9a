import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SeededAccount } from '../support/accounts.js';
import { ChildApp, freePort } from '../support/child-app.js';
import { produce } from '../support/kafka.js';
import { seededChildSetup } from '../support/seeded-child.js';
import { usageEventMix } from '../support/usage-event-mix.js';
import {
  expectExportOfLast30Days,
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
  const setup = await seededChildSetup('usage-graceful', ['Initech']);
  ({ topic, dataDir } = setup);
  [org] = setup.orgs;
  child = new ChildApp(setup.buildDir, await freePort(), kafkaAppEnv(topic, { DATA_DIR: dataDir }));
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
    await expectExportOfLast30Days(child.baseUrl, org, events);
    expect([0, 'SIGTERM']).toContain(await child.stop('SIGTERM'));
  }, 300_000);
});
