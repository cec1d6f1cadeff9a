import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SHARED_STORE_CACHE_MS } from '../../src/usage/clickhouse/shared-store-freshness.js';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import type { SeededAccount } from '../support/accounts.js';
import type { ChildApp } from '../support/child-app.js';
import {
  clickhouseQuery,
  INGEST_PROCESSES_START_MS,
  startClickHouseIngestProcesses,
  type ClickHouseIngestProcesses,
} from '../support/clickhouse-ingest-processes.js';
import { produce } from '../support/kafka.js';
import { groupAssignment, killMidIngestion } from '../support/mid-ingestion-kill.js';
import { seeded, usageEventMix } from '../support/usage-event-mix.js';
import { expectExportOfLast30Days, groupCaughtUp, waitFor } from '../support/usage-kafka.js';

/*
 * Several ingest processes in one consumer group, each owning some of the topic's three
 * partitions and writing to the same ClickHouse database; one of them is killed with
 * SIGKILL mid-ingestion (frozen first, and killed only while it owns events it has not
 * committed), round after round, and restarted. The export (through either
 * process) must equal the reference computation: nothing lost, nothing counted twice.
 */

const ROUNDS = 6;
const CHUNK = 3000;
/** Events of a round produced before any freeze. */
const HEAD = 300;
/** Events per produce request after the head: a freeze can follow any of them. */
const SLICE = 100;

let topic: string;
let group: string;
let database: string;
let orgs: SeededAccount[];
let processes: ChildApp[];
let clientIds: string[];
let started: ClickHouseIngestProcesses | undefined;

/**
 * Batches the process wrote: committed, or superseded (fetched before a rebalance, which a
 * restarted process causes each round; fetched again after it).
 */
const batchesWritten = async (child: ChildApp) =>
  (await child.metric(/docproc_usage_consumer_batches_total\{outcome="ok"\} (\d+)/)) +
  (await child.metric(/docproc_usage_consumer_batches_total\{outcome="superseded"\} (\d+)/));

beforeAll(async () => {
  started = await startClickHouseIngestProcesses(
    'usage-ch-processes',
    ['Acme', 'Globex', 'Initech'],
    {
      // Small fetches: many writes, so kills land between ClickHouse writes and offset commits.
      KAFKA_FETCH_MIN_BYTES: '1',
      KAFKA_FETCH_MAX_BYTES_PER_PARTITION: '16384',
    },
  );
  ({ topic, group, database, orgs, processes, clientIds } = started);
}, INGEST_PROCESSES_START_MS);

afterAll(async () => {
  await started?.close();
});

describe('several ingest processes writing to one ClickHouse', () => {
  it(`share the partitions and lose or double-count nothing when one is killed ${ROUNDS} times mid-ingestion`, async () => {
    const random = seeded(2026);
    const orgIds = orgs.map((o) => o.orgId);
    const published: UsageCloudEvent[] = [];
    // One org per partition, all three partitions used, whatever the org ids hash to: each
    // process owns events, and every copy of an event meets on one partition.
    const messagesOf = (events: UsageCloudEvent[]) =>
      events.map((e) => ({
        key: e.data.orgId,
        value: JSON.stringify(e),
        partition: orgIds.indexOf(e.data.orgId) % 3,
      }));
    const publish = async (events: UsageCloudEvent[]) => {
      await produce(topic, messagesOf(events));
      published.push(...events);
    };
    const uncommittedAtKills: number[] = [];
    let missedFreezes = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const victim = processes[round % processes.length];
      const victimId = clientIds[round % processes.length];
      // The previous round's restart rebalanced the group: whose partitions are whose is
      // known again once both processes joined and the killed member's session ended.
      await waitFor(
        `round ${round}: both processes to own partitions of a stable group`,
        async () => {
          for (const child of processes) {
            if ((await child.metric(/docproc_usage_consumer_group_joins_total (\d+)/)) < 1) {
              return false;
            }
          }
          const assignment = await groupAssignment(topic, group);
          return (
            assignment.stable && clientIds.every((id) => !!assignment.byClient.get(id)?.length)
          );
        },
        120_000,
      );
      const fresh = usageEventMix(orgIds, CHUNK, { seed: round + 1, prefix: `multi${round}` });
      // Republished earlier events: the dedupe must hold across processes and restarts.
      const replay = published.filter(() => random() < 0.03);
      const events = [...fresh, ...replay];
      // The head of the round first: the victim is writing this round's events...
      const before = await batchesWritten(victim);
      await publish(events.slice(0, HEAD));
      await waitFor(
        `round ${round}: the victim to write a batch`,
        async () => (await batchesWritten(victim)) > before,
        60_000,
        20,
      );
      // ...then the rest in slices, the victim frozen right after one of them (a random one:
      // the kill lands at different stages of a fetch, a write or a commit) and killed only
      // if, frozen, it still owns events it has not committed.
      const freeze = await killMidIngestion(
        victim,
        { topic, group, clientId: victimId },
        { events: events.slice(HEAD), messagesOf, published },
        { sliceSize: SLICE, firstFreezeAfter: 1 + Math.floor(random() * 3) },
      );
      uncommittedAtKills.push(freeze.uncommitted);
      missedFreezes += freeze.missed.length;
    }
    console.log(
      `ClickHouse ingest processes: events of its partitions the victim had not committed at each kill: ${uncommittedAtKills.join(', ')}; freezes that found it drained: ${missedFreezes}`,
    );

    await waitFor('the group to catch up', () => groupCaughtUp(topic, group), 120_000);
    // Both processes wrote: each round above waited for its victim, and the victims alternate.
    // (A count read now would say nothing: the last victim restarted, and its counter with it,
    // after the other process may have drained what was left.)
    for (const org of orgs) {
      await expectExportOfLast30Days(processes[0].baseUrl, org, published);
      await expectExportOfLast30Days(processes[1].baseUrl, org, published);
    }
    // Cached answers follow writes made by the other process too (every SHARED_STORE_CACHE_MS;
    // waited on rather than slept: a loaded machine delays that timer in each process).
    const more = usageEventMix(orgIds, 90, { seed: 99, prefix: 'after' });
    await produce(
      topic,
      more.map((e) => ({
        key: e.data.orgId,
        value: JSON.stringify(e),
        partition: orgIds.indexOf(e.data.orgId) % 3,
      })),
    );
    published.push(...more);
    await waitFor('the group to catch up again', () => groupCaughtUp(topic, group), 60_000);
    await waitFor(
      "every process to answer with the other process's writes",
      async () => {
        for (const org of orgs) {
          for (const child of processes) {
            await expectExportOfLast30Days(child.baseUrl, org, published);
          }
        }
        return true;
      },
      30 * SHARED_STORE_CACHE_MS,
      SHARED_STORE_CACHE_MS,
    );
    // The events table holds each event once, before any background merge.
    const distinct = new Set(published.map((e) => `${e.source}\u0000${e.id}`)).size;
    expect(Number(await clickhouseQuery(`SELECT count() FROM ${database}.usage_events`))).toBe(
      distinct,
    );
  }, 600_000);
});
