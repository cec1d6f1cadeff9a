import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import type { SeededAccount } from '../support/accounts.js';
import { ChildApp, freePort } from '../support/child-app.js';
import { produce } from '../support/kafka.js';
import { seededChildSetup } from '../support/seeded-child.js';
import { seeded, usageEventMix } from '../support/usage-event-mix.js';
import {
  expectExportOfLast30Days,
  groupCaughtUp,
  kafkaAppEnv,
  waitFor,
} from '../support/usage-kafka.js';

const KILLS = 12;
const CHUNK = 3000;

let dataDir: string;
let topic: string;
let group: string;
let orgs: SeededAccount[];
let child: ChildApp;

beforeAll(async () => {
  const setup = await seededChildSetup('usage-crash', ['Acme', 'Globex']);
  ({ topic, dataDir, orgs } = setup);
  const env = kafkaAppEnv(topic, {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    // Small fetches: many batches, so kills land between DuckDB commits and offset commits,
    // and a round takes long enough to ingest that the kill comes before its end.
    KAFKA_FETCH_MIN_BYTES: '1',
    KAFKA_FETCH_MAX_BYTES_PER_PARTITION: '16384',
  });
  group = env.KAFKA_CONSUMER_GROUP;
  child = new ChildApp(setup.buildDir, await freePort(), env);
}, 240_000);

afterAll(async () => {
  await child?.stop('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('Kafka usage ingestion under SIGKILL', () => {
  it(`loses nothing and counts nothing twice when the consumer process is killed ${KILLS} times during ingestion`, async () => {
    const random = seeded(2024);
    const orgIds = orgs.map((o) => o.orgId);
    const published: UsageCloudEvent[] = [];
    let killedWhileBehind = 0;
    for (let round = 0; round < KILLS; round++) {
      const fresh = usageEventMix(orgIds, CHUNK, { seed: round + 1, prefix: `crash${round}` });
      // Republished earlier events: the dedupe must hold across restarts too.
      const replay = published.filter(() => random() < 0.03);
      const batch = [...fresh, ...replay];
      await produce(
        topic,
        batch.map((e) => ({ key: e.data.orgId, value: JSON.stringify(e) })),
      );
      published.push(...batch);

      await child.start();
      // Kill at a random point once this process has written at least one batch.
      await waitFor(
        `round ${round}: the child to write a batch`,
        async () =>
          (await child.metric(/docproc_usage_consumer_batches_total\{outcome="ok"\} (\d+)/)) > 0,
        30_000,
        20,
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}\nchild stderr:\n${child.stderr.slice(-3000)}`);
      });
      // Not a wait: a random kill point, so the kills land at different stages of a batch.
      // Within tens of ms: on a quiet machine the process drains a round in a few hundred.
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 40)));
      if (!(await groupCaughtUp(topic, group))) killedWhileBehind++;
      expect(await child.stop('SIGKILL')).toBe('SIGKILL');
    }
    // Most kills must have hit mid-ingestion, or this test proves little.
    console.log(
      `SIGKILL spec: ${killedWhileBehind} of ${KILLS} kills hit while the group was behind`,
    );
    expect(killedWhileBehind).toBeGreaterThanOrEqual(KILLS / 2);

    await child.start();
    await waitFor('the group to catch up', () => groupCaughtUp(topic, group), 120_000);
    for (const org of orgs) {
      await expectExportOfLast30Days(child.baseUrl, org, published);
    }
    // A graceful stop: Nest closes the app, then re-raises the signal.
    expect([0, 'SIGTERM']).toContain(await child.stop('SIGTERM'));
  }, 600_000);
});
