import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import type { SeededAccount } from '../support/accounts.js';
import { ChildApp } from '../support/child-app.js';
import { produce } from '../support/kafka.js';
import { killMidIngestion } from '../support/mid-ingestion-kill.js';
import { seededChildSetup } from '../support/seeded-child.js';
import { seeded, usageEventMix } from '../support/usage-event-mix.js';
import {
  expectExportOfLast30Days,
  groupCaughtUp,
  kafkaAppEnv,
  waitFor,
  usageMessagesOf,
} from '../support/usage-kafka.js';

const KILLS = 12;
const CHUNK = 2000;
/** Events of a round produced before any freeze; the rest come in slices. */
const HEAD = 500;
/** Events per produce request after the head: a freeze can follow any of them. */
const SLICE = 100;
/** The process's Kafka client id, which names its member of the group. */
const CLIENT_ID = 'docproc-crash-victim';

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
    KAFKA_CLIENT_ID: CLIENT_ID,
    // Small fetches: many batches, so kills land between DuckDB commits and offset commits.
    KAFKA_FETCH_MIN_BYTES: '1',
    KAFKA_FETCH_MAX_BYTES_PER_PARTITION: '16384',
  });
  group = env.KAFKA_CONSUMER_GROUP;
  child = new ChildApp(setup.buildDir, env);
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
    const publish = async (events: UsageCloudEvent[]) => {
      await produce(topic, usageMessagesOf(events));
      published.push(...events);
    };
    const okBatches = () =>
      child.metric(/docproc_usage_consumer_batches_total\{outcome="ok"\} (\d+)/);
    const uncommittedAtKills: number[] = [];
    let missedFreezes = 0;
    await child.start();
    for (let round = 0; round < KILLS; round++) {
      const fresh = usageEventMix(orgIds, CHUNK, { seed: round + 1, prefix: `crash${round}` });
      // Republished earlier events: the dedupe must hold across restarts too.
      const replay = published.filter(() => random() < 0.03);
      const events = [...fresh, ...replay];
      // The head of the round first: the process is writing this round's events...
      const before = await okBatches();
      await publish(events.slice(0, HEAD));
      await waitFor(
        `round ${round}: the child to write a batch`,
        async () => (await okBatches()) > before,
        120_000,
        20,
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}\nchild stderr:\n${child.stderr.slice(-3000)}`);
      });
      // ...then the rest in slices, the process frozen right after one of them (a random one:
      // the kill lands at different stages of a fetch, a write or a commit) and killed only
      // if, frozen, it still has events it has not committed.
      const freeze = await killMidIngestion(
        child,
        { topic, group, clientId: CLIENT_ID },
        { events: events.slice(HEAD), messagesOf: usageMessagesOf, published },
        { sliceSize: SLICE, firstFreezeAfter: 1 + Math.floor(random() * 3) },
      );
      uncommittedAtKills.push(freeze.uncommitted);
      missedFreezes += freeze.missed.length;
      // The restarted process takes up what the killed one left before the next round, so
      // the backlog stays one round's, however slowly a loaded machine ingests.
      await waitFor(
        `round ${round}: the group to catch up`,
        () => groupCaughtUp(topic, group),
        600_000,
      );
    }
    console.log(
      `SIGKILL spec: events not committed at each kill: ${uncommittedAtKills.join(', ')}; freezes that found the process drained: ${missedFreezes}`,
    );

    for (const org of orgs) {
      await expectExportOfLast30Days(child.baseUrl, org, published);
    }
    // A graceful stop: Nest closes the app, then re-raises the signal.
    expect([0, 'SIGTERM']).toContain(await child.stop('SIGTERM'));
  }, 1_800_000);
});
