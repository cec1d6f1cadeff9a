import { Partitioners } from 'kafkajs';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createKafka } from '../../src/usage/ingestion/kafka/kafka-client.js';
import { UsageEventProducer } from '../../src/usage/ingestion/kafka/usage-event.producer.js';
import { UsageKafkaConsumer } from '../../src/usage/ingestion/kafka/usage-kafka.consumer.js';
import {
  USAGE_EVENT_WRITER,
  type UsageEventWriter,
} from '../../src/usage/core/usage-store.ports.js';
import {
  USAGE_EVENT_SINK,
  type UsageCloudEvent,
  type UsageEventSink,
} from '../../src/usage/usage-event.js';
import { seedAccount, type SeededAccount } from '../support/accounts.js';
import { consumeAll, createTestTopic, produce, testKafkaBrokers } from '../support/kafka.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { USAGE_STORES, usageStoreEnv } from '../support/usage-stores.js';
import { usageEventMix } from '../support/usage-event-mix.js';
import { refusedValues, usageEvent } from '../support/usage-events.js';
import {
  expectExportOfLast30Days,
  groupCaughtUp,
  groupMemberCount,
  kafkaAppEnv,
  waitFor,
  usageMessagesOf,
} from '../support/usage-kafka.js';

const run = promisify(execFile);

describe.each(USAGE_STORES)('with the %s usage store', (store) => {
  let t: TestApp;
  let topic: string;
  let group: string;
  /** The consumer's configured stall timeout and lag interval (the readiness rule's clock). */
  let stallTimeoutMs: number;
  let lagIntervalMs: number;
  let sessionTimeoutMs: number;
  let orgs: SeededAccount[];
  /** Every valid event published to the topic so far, duplicates included. */
  const published: UsageCloudEvent[] = [];

  async function caughtUp(): Promise<void> {
    await waitFor(`group ${group} to commit the end of ${topic}`, () =>
      groupCaughtUp(topic, group),
    );
  }

  async function expectExportsMatch(): Promise<void> {
    for (const org of orgs) await expectExportOfLast30Days(t.baseUrl, org, published);
  }

  async function metricsText(): Promise<string> {
    const res = await fetch(`${t.baseUrl}/metrics`);
    expect(res.status).toBe(200);
    return res.text();
  }

  function findMetric(text: string, name: string): number | undefined {
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    return line === undefined ? undefined : Number(line.slice(name.length + 1));
  }

  function metricValue(text: string, name: string): number {
    const value = findMetric(text, name);
    if (value === undefined) throw new Error(`metric ${name} missing`);
    return value;
  }

  /** Batches the consumer handled with this outcome (0 before the first). */
  function consumerBatches(text: string, outcome: string): number {
    return findMetric(text, `docproc_usage_consumer_batches_total{outcome="${outcome}"}`) ?? 0;
  }

  /** Runs `work` with a connected idempotent producer on the test topic. */
  async function withProducer(
    clientId: string,
    work: (producer: UsageEventProducer) => Promise<void>,
  ): Promise<void> {
    const producer = new UsageEventProducer(
      createKafka({ brokers: testKafkaBrokers(), clientId }),
      topic,
    );
    await producer.connect();
    try {
      await work(producer);
    } finally {
      await producer.disconnect();
    }
  }

  beforeAll(async () => {
    topic = await createTestTopic('usage-it', 3);
    stallTimeoutMs = 2_000;
    const env = kafkaAppEnv(topic, { KAFKA_STALL_TIMEOUT_MS: String(stallTimeoutMs) });
    group = env.KAFKA_CONSUMER_GROUP;
    lagIntervalMs = Number(env.KAFKA_LAG_INTERVAL_MS);
    sessionTimeoutMs = Number(env.KAFKA_SESSION_TIMEOUT_MS);
    t = await startTestApp({ ...env, ...usageStoreEnv(store) });
    orgs = [];
    for (const name of ['Acme', 'Globex', 'Initech']) orgs.push(await seedAccount(t.app, name));
    // Org ids are random and events are keyed by org: make sure the keys span partitions.
    while (new Set(orgs.map((o) => partitionOf(o.orgId))).size < 2) {
      orgs.push(await seedAccount(t.app, `Extra ${orgs.length}`));
    }
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  describe('Kafka usage ingestion (real broker)', () => {
    it('ingests events of several orgs over several partitions, with duplicates and out-of-order times, and the export equals the reference', async () => {
      const events = usageEventMix(
        orgs.map((o) => o.orgId),
        3000,
        { seed: 11, prefix: 'mix' },
      );
      await withProducer('it-producer', async (producer) => {
        await producer.publish(events.slice(0, 2000));
        // Redeliveries: the same (source, id) again, some in the same fetch, some much later.
        const again = events.filter((_, i) => i % 7 === 0);
        await producer.publish(again);
        await producer.publish(events.slice(2000));
        await producer.publish(again.slice(0, 50));
        published.push(...events, ...again, ...again.slice(0, 50));
      });
      await caughtUp();

      const admin = createKafka({ brokers: testKafkaBrokers(), clientId: 'it-admin' }).admin();
      await admin.connect();
      const offsets = await admin.fetchTopicOffsets(topic);
      await admin.disconnect();
      expect(offsets.filter((o) => Number(o.high) > 0).length).toBeGreaterThan(1);

      await expectExportsMatch();
      const metrics = await metricsText();
      expect(metricValue(metrics, 'docproc_usage_events_ingested_total')).toBe(3000);
      // Every copy beyond the first is a duplicate. A consumer that rejoined its group (the
      // watchdog replaces one whose write outlasts the stall timeout on a loaded machine) is
      // sent its uncommitted fetch again, and those events count as duplicates too.
      const duplicates = metricValue(metrics, 'docproc_usage_events_duplicate_total');
      const rejoined = metricValue(metrics, 'docproc_usage_consumer_group_joins_total') > 1;
      expect(duplicates).toBeGreaterThanOrEqual(published.length - 3000);
      expect({ rejoined, duplicates }).toEqual({
        rejoined,
        duplicates: rejoined ? duplicates : published.length - 3000,
      });
    }, 120_000);

    it('writes a batch again when its write fails: nothing skipped, nothing counted twice', async () => {
      const writer = t.app.get<UsageEventWriter>(USAGE_EVENT_WRITER);
      const writeBatch = writer.writeBatch.bind(writer);
      let calls = 0;
      // Fault injection on the real store: its 2nd and 3rd writes fail (a merged write, then
      // the first of its groups retried alone), as a full disk or an I/O error would.
      writer.writeBatch = async (groups, rule) => {
        calls++;
        if (calls === 2 || calls === 3) throw new Error('injected write failure');
        return writeBatch(groups, rule);
      };
      const errorsBefore = consumerBatches(await metricsText(), 'error');
      try {
        const events = usageEventMix(
          orgs.map((o) => o.orgId),
          2400,
          { seed: 23, prefix: 'rewind' },
        );
        await withProducer('it-producer-rewind', async (producer) => {
          for (let i = 0; i < events.length; i += 300) {
            await producer.publish(events.slice(i, i + 300));
            published.push(...events.slice(i, i + 300));
          }
        });
        await caughtUp();
      } finally {
        writer.writeBatch = writeBatch;
      }
      expect(calls).toBeGreaterThan(3);
      expect(consumerBatches(await metricsText(), 'error')).toBeGreaterThan(errorsBefore);
      await expectExportsMatch();
    }, 120_000);

    it('publishes through USAGE_EVENT_SINK (the Kafka sink in Kafka mode) and ingests those events', async () => {
      const sink = t.app.get<UsageEventSink>(USAGE_EVENT_SINK);
      const events = usageEventMix([orgs[0].orgId], 40, { seed: 3, prefix: 'sink' });
      // Concurrent publishes share produce requests; each resolves once its events are acked.
      await Promise.all(events.map((e) => sink.publish([e])));
      published.push(...events);
      await caughtUp();
      await expectExportsMatch();
    }, 120_000);

    it('dead-letters malformed events of every kind with the reason, original bytes and headers, and ingests the good ones around them', async () => {
      const org = orgs[1].orgId;
      const good = (n: number) =>
        usageEvent({ orgId: org, credits: '0.000001' }, { id: `dlq-good-${n}` });
      const bad = refusedValues(org);
      const goods = [good(0), good(1), good(2)];
      // One key, so one partition and this exact order: good, bad..., good, bad..., good.
      const messages = [
        { value: JSON.stringify(goods[0]) },
        ...bad.slice(0, 5).map((b) => ({ value: b.value })),
        { value: JSON.stringify(goods[1]) },
        ...bad.slice(5).map((b) => ({ value: b.value })),
        { value: JSON.stringify(goods[2]) },
      ].map((m) => ({ ...m, key: 'dlq-key', headers: { 'x-trace': 'trace-42' } }));
      await produce(topic, messages);
      published.push(...goods);
      await caughtUp();

      const dead = await consumeAll(`${topic}.dlq`, 60_000, { atLeast: bad.length });
      expect(dead).toHaveLength(bad.length);
      expect(dead.map((d) => d.headers['docproc-dlq-reason'])).toEqual(bad.map((b) => b.reason));
      dead.forEach((d, i) => {
        const original = bad[i].value;
        expect(d.value === null ? null : d.value.toString('utf8')).toEqual(original);
        expect(d.key).toBe('dlq-key');
        expect(d.headers['x-trace']).toBe('trace-42');
        expect(d.headers['docproc-dlq-source-topic']).toBe(topic);
        expect(d.headers['docproc-dlq-detail']).toEqual(expect.any(String));
        expect(Number(d.headers['docproc-dlq-source-offset'])).toBeGreaterThanOrEqual(0);
        expect(d.headers['docproc-dlq-source-partition']).toMatch(/^\d+$/);
      });
      expect(
        dead.find((d) => d.headers['docproc-dlq-reason'] === 'time_skew')?.headers[
          'docproc-dlq-detail'
        ],
      ).toMatch(/future/);
      expect(
        dead.find((d) => d.headers['docproc-dlq-reason'] === 'late_event')?.headers[
          'docproc-dlq-detail'
        ],
      ).toMatch(/older than the late-event window of 90 days/);
      await expectExportsMatch();

      const metrics = await metricsText();
      expect(metrics).toMatch(/docproc_usage_dead_lettered_total\{reason="time_skew"\} 2/);
      expect(metrics).toMatch(/docproc_usage_dead_lettered_total\{reason="malformed_json"\} 1/);
      expect(metrics).toMatch(/docproc_usage_dead_lettered_total\{reason="late_event"\} 1/);
      expect(metrics).toMatch(/docproc_usage_batch_write_seconds_count \d+/);
      expect(metrics).toMatch(/docproc_usage_consumer_seconds_since_last_batch \d/);
      expect(metrics).toMatch(/process_resident_memory_bytes \d/);
    }, 120_000);

    it('ingests events produced by a plain external client (kcat)', async () => {
      const events = usageEventMix([orgs[2].orgId], 25, { seed: 5, prefix: 'kcat' });
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kcat-')), 'events.ndjson');
      fs.writeFileSync(file, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
      await run('kcat', ['-P', '-b', testKafkaBrokers()[0], '-t', topic, '-l', file]);
      published.push(...events);
      await caughtUp();
      await expectExportsMatch();
    }, 120_000);

    it('reports per-partition lag in /metrics and turns /ready 503 when the consumer stops making progress while lag exists', async () => {
      // /ready follows a lag measurement taken every lagIntervalMs (two, for one that was
      // under way when the state changed); the slack is for a loaded CI machine, where one
      // admin round trip to the broker can take seconds.
      const slackMs = 30_000;
      const readyWithinMs = 2 * lagIntervalMs + slackMs;
      await waitFor(
        'ready',
        async () => (await fetch(`${t.baseUrl}/ready`)).status === 200,
        readyWithinMs,
      );
      expect(await metricsText()).toMatch(
        new RegExp(
          `docproc_usage_consumer_lag\\{topic="${topic.replace(/\./g, '\\.')}",partition="0"\\} 0`,
        ),
      );
      // The consumers replaced after the failed writes above leave the group for good (one
      // that could not say so drops out after the session timeout): a second member would
      // own partitions this one's pause and lag do not cover.
      await waitFor(
        'the group to have one member',
        async () => (await groupMemberCount(group)) === 1,
        sessionTimeoutMs + slackMs,
      );

      // The silent stop: still in the group, not fetching.
      const consumer = t.app.get(UsageKafkaConsumer);
      // Synchronous: kafkajs drops whatever a fetch returns for a paused partition, so none of
      // the events produced below reaches the consumer.
      consumer.pause();
      const stuck = usageEventMix([orgs[0].orgId], 30, { seed: 9, prefix: 'stall' });
      await produce(topic, usageMessagesOf(stuck));
      published.push(...stuck);
      // Unready once the lag is measured and the stall timeout has passed since the last
      // measurement without lag.
      await waitFor(
        '503 from /ready',
        async () => (await fetch(`${t.baseUrl}/ready`)).status === 503,
        stallTimeoutMs + readyWithinMs,
      );
      const body = (await (await fetch(`${t.baseUrl}/ready`)).json()) as {
        error: {
          code: string;
          checks: { usageConsumer: { detail: { lag: number; reason: string } } };
        };
      };
      expect(body.error.code).toBe('NOT_READY');
      expect(body.error.checks.usageConsumer.detail.lag).toBe(30);
      expect(body.error.checks.usageConsumer.detail.reason).toMatch(/no progress/);
      expect(await metricsText()).toMatch(/docproc_usage_consumer_ready 0/);

      consumer.resume();
      await caughtUp();
      await waitFor(
        'ready again',
        async () => (await fetch(`${t.baseUrl}/ready`)).status === 200,
        readyWithinMs,
      );
      await expectExportsMatch();
    }, 240_000);
  });

  /** The partition kafkajs' default partitioner picks for a key on a 3-partition topic. */
  function partitionOf(key: string): number {
    const partitioner = Partitioners.DefaultPartitioner();
    const partitionMetadata = [0, 1, 2].map((partitionId) => ({
      partitionId,
      partitionErrorCode: 0,
      leader: 1,
      replicas: [1],
      isr: [1],
    }));
    return partitioner({ topic: 'any', partitionMetadata, message: { key, value: null } });
  }
});
