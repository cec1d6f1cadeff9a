import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { KafkaUsageSink } from '../../src/usage/ingestion/kafka/kafka-usage.sink.js';
import { MissingTopicError } from '../../src/usage/ingestion/kafka/kafka-topics.js';
import { seedAccount } from '../support/accounts.js';
import { consumeAll, createTestTopic, produce, testKafkaBrokers } from '../support/kafka.js';
import { recordLogs } from '../support/operations.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usageEvent } from '../support/usage-events.js';
import {
  groupCaughtUp,
  groupOffsets,
  kafkaAppEnv,
  waitFor,
  withAdmin,
} from '../support/usage-kafka.js';

/**
 * With KAFKA_CREATE_TOPICS=false an operator creates the topics; one missing must be named
 * at once (/ready and the log), not found out from a stall minutes later, and nothing the
 * consumer could not dead-letter may be committed. Real broker, topics of this spec's own.
 */
describe('Kafka usage ingestion with a topic missing and topic creation off', () => {
  let t: TestApp | undefined;
  let logs: ReturnType<typeof recordLogs>;

  beforeEach(() => {
    logs = recordLogs();
  });

  afterEach(async () => {
    await t?.close();
    t = undefined;
    logs.restore();
  });

  async function readinessCheck(name: string): Promise<{
    status: number;
    ready: boolean;
    detail: Record<string, unknown>;
  } | null> {
    const res = await fetch(`${t!.baseUrl}/ready`);
    type Check = { ready: boolean; detail: Record<string, unknown> };
    const body = (await res.json()) as {
      checks?: Record<string, Check>;
      error?: { checks: Record<string, Check> };
    };
    const check = (body.checks ?? body.error!.checks)[name];
    return check ? { status: res.status, ...check } : null;
  }

  async function consumerCheck(): Promise<{
    status: number;
    ready: boolean;
    detail: Record<string, unknown>;
  }> {
    const check = await readinessCheck('usageConsumer');
    if (!check) throw new Error('/ready has no usageConsumer check');
    return check;
  }

  /** Waits until /ready fails at once naming `topic`, the setting that names it and the fix. */
  async function awaitMissingTopicNamed(topic: string, setting: string): Promise<void> {
    await waitFor(
      `/ready to name the missing topic ${topic}`,
      async () => {
        const check = await consumerCheck();
        expect(check).toMatchObject({ status: 503, ready: false });
        expect(check.detail.missingTopics).toEqual([topic]);
        expect(check.detail.reason).toEqual(
          expect.stringContaining(`"${topic}" (${setting}) does not exist`),
        );
        expect(check.detail.reason).toEqual(expect.stringContaining('KAFKA_CREATE_TOPICS=true'));
        return true;
      },
      AT_ONCE_MS,
    );
  }

  /** Error lines of the log that name `topic`. */
  function errorsNaming(topic: string): string[] {
    return logs.entries
      .filter((e) => e.level === 'error' && String(e.msg).includes(`"${topic}"`))
      .map((e) => String(e.msg));
  }

  async function createTopic(topic: string): Promise<void> {
    await withAdmin(testKafkaBrokers(), (admin) =>
      admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true }),
    );
  }

  // Far below the stall timeout (60 s) after which /ready used to fail, without the topic named.
  const AT_ONCE_MS = 15_000;

  it('names a missing dead-letter topic at once, holds back the batch it cannot dead-letter, and takes it up once the topic exists', async () => {
    const topic = await createTestTopic('usage-no-dlq', 1);
    const deadLetterTopic = `${topic}.dlq`;
    const env = kafkaAppEnv(topic, { KAFKA_CREATE_TOPICS: 'false' });
    t = await startTestApp(env);

    await awaitMissingTopicNamed(deadLetterTopic, 'KAFKA_DLQ_TOPIC');
    expect(errorsNaming(deadLetterTopic)).toEqual([
      expect.stringMatching(/KAFKA_DLQ_TOPIC.*KAFKA_CREATE_TOPICS=true/),
    ]);

    const org = await seedAccount(t.app, 'MissingDlq');
    const good = usageEvent({ orgId: org.orgId }, { id: `missing-dlq-good-${randomUUID()}` });
    // The refused event first: nothing of the partition may be committed past it.
    await produce(topic, [
      { key: org.orgId, value: '{"not": "a usage event"' },
      { key: org.orgId, value: JSON.stringify(good) },
    ]);
    await waitFor(
      'the failed dead-letter send to be logged with the topic and what to do',
      () => errorsNaming(deadLetterTopic).some((m) => m.includes('usage batch not committed')),
      AT_ONCE_MS,
    );
    const [held] = errorsNaming(deadLetterTopic).filter((m) => m.includes('not committed'));
    expect(held).toContain('KAFKA_CREATE_TOPICS=true');
    expect(held).toContain('nothing is lost');
    expect((await groupOffsets(topic, env.KAFKA_CONSUMER_GROUP))[0]).toMatchObject({
      high: 2,
      committed: -1,
    });

    // Held for a while first: the held batch is taken up by the topic's creation, not by a
    // restart that happens to come later (the consumer used to restart after 30 s).
    await waitFor(
      'the consumer to hold the batch for a while',
      async () => Number((await consumerCheck()).detail.secondsSinceProgress) >= 3,
    );
    await createTopic(deadLetterTopic);
    const created = Date.now();
    await waitFor(
      'the held-back batch to be committed',
      () => groupCaughtUp(topic, env.KAFKA_CONSUMER_GROUP),
      90_000,
    );
    const takenUpMs = Date.now() - created;
    process.stderr.write(`held batch committed ${takenUpMs} ms after the topic's creation\n`);
    await waitFor('/ready once the topic exists', async () => (await consumerCheck()).ready);
    // The topic is listed again within 5 s (a bounded backoff), then the consumer joins
    // its group (the broker's initial rebalance delay is 3 s); far below the 30 s before.
    expect(takenUpMs).toBeLessThan(20_000);
    const dead = await consumeAll(deadLetterTopic, 30_000, { atLeast: 1 });
    expect(dead.map((d) => d.headers['docproc-dlq-reason'])).toEqual(['malformed_json']);
    expect(dead[0].value?.toString()).toBe('{"not": "a usage event"');
    // Nothing lost or doubled: the good event of the held batch is counted once.
    const usage = await fetch(
      `${t.baseUrl}/api/v1/usage/export?orgId=${org.orgId}&groupBy=product`,
      { headers: { authorization: `Bearer ${org.accountKey}` } },
    );
    const { data } = (await usage.json()) as { data: { requestCount: number }[] };
    expect(data.reduce((n, row) => n + row.requestCount, 0)).toBe(1);
    // Found missing once at start: not logged again at each lag measurement.
    expect(
      errorsNaming(deadLetterTopic).filter((m) => !m.includes('usage batch not committed')),
    ).toHaveLength(1);
    expect(logs.entries.map((e) => String(e.msg))).toContain(
      `Kafka dead-letter topic "${deadLetterTopic}" (KAFKA_DLQ_TOPIC) exists now`,
    );
  }, 180_000);

  it('names a missing usage topic at once, once in the log, and starts consuming once it exists', async () => {
    const topic = `usage-no-topic.${randomUUID().slice(0, 8)}`;
    const env = kafkaAppEnv(topic, { KAFKA_CREATE_TOPICS: 'false' });
    await createTopic(env.KAFKA_DLQ_TOPIC);
    t = await startTestApp(env);

    await awaitMissingTopicNamed(topic, 'KAFKA_USAGE_TOPIC');
    // Long enough for retried starts (every 2 s) and lag measurements (every 200 ms).
    await waitFor(
      'the consumer to go without a start for a while',
      async () => Number((await consumerCheck()).detail.secondsSinceProgress) >= 4,
    );

    await createTopic(topic);
    const org = await seedAccount(t.app, 'MissingUsageTopic');
    await produce(topic, [
      { key: org.orgId, value: JSON.stringify(usageEvent({ orgId: org.orgId })) },
    ]);
    await waitFor('the group to consume the usage topic', () =>
      groupCaughtUp(topic, env.KAFKA_CONSUMER_GROUP),
    );
    await waitFor('/ready once the topic exists', async () => (await consumerCheck()).ready);
    // The consumer's start was retried every 2 s meanwhile, each time finding it missing.
    expect(errorsNaming(topic)).toEqual([expect.stringContaining('KAFKA_USAGE_TOPIC')]);
    expect(logs.entries.map((e) => String(e.msg))).toContain(
      `Kafka usage topic "${topic}" (KAFKA_USAGE_TOPIC) exists now`,
    );
  }, 120_000);
  it('names a missing usage topic at once in a server that only publishes usage', async () => {
    const topic = `usage-publish-only.${randomUUID().slice(0, 8)}`;
    const env = kafkaAppEnv(topic, {
      KAFKA_CREATE_TOPICS: 'false',
      KAFKA_CONSUMER_ENABLED: 'false',
    });
    t = await startTestApp(env);

    await waitFor(
      '/ready to name the missing usage topic',
      async () => {
        const check = await readinessCheck('usagePublisher');
        expect(check).toMatchObject({ status: 503, ready: false });
        expect(check!.detail.missingTopics).toEqual([topic]);
        expect(check!.detail.reason).toEqual(
          expect.stringContaining(`"${topic}" (KAFKA_USAGE_TOPIC) does not exist`),
        );
        expect(check!.detail.reason).toEqual(expect.stringContaining('KAFKA_CREATE_TOPICS=true'));
        return true;
      },
      AT_ONCE_MS,
    );
    // No consumer here: the dead-letter topic is not this process's concern.
    expect(await readinessCheck('usageConsumer')).toBeNull();

    // A send is refused at once in the same words, not after kafkajs' retries (~35-40 s),
    // and the relay's next sends do not queue behind a hung one: each is refused as fast.
    const org = await seedAccount(t.app, 'PublishOnly');
    const sink = t.app.get(KafkaUsageSink);
    const event = usageEvent({ orgId: org.orgId }, { id: `publish-only-${randomUUID()}` });
    for (let send = 0; send < 3; send++) {
      const started = Date.now();
      const refused = await sink.publish([event]).then(
        () => null,
        (error: unknown) => error,
      );
      expect(Date.now() - started).toBeLessThan(AT_ONCE_MS / 3);
      expect(refused).toBeInstanceOf(MissingTopicError);
      const message = String((refused as Error).message);
      expect(message).toContain(`"${topic}" (KAFKA_USAGE_TOPIC) does not exist`);
      expect(message).toContain('usage events wait in the outbox until it exists');
    }
    // Said once in the log, by the readiness check and the refused sends together.
    expect(errorsNaming(topic)).toEqual([
      expect.stringMatching(/KAFKA_USAGE_TOPIC.*wait in the outbox/),
    ]);

    await createTopic(topic);
    await waitFor('/ready once the topic exists', async () => {
      const check = await readinessCheck('usagePublisher');
      return check?.status === 200 && check.ready && check.detail.state === 'exists';
    });
    expect(logs.entries.map((e) => String(e.msg))).toContain(
      `Kafka usage topic "${topic}" (KAFKA_USAGE_TOPIC) exists now`,
    );
    // Once it exists the same event is sent and is on the topic.
    await sink.publish([event]);
    const sent = await consumeAll(topic, 30_000, { atLeast: 1 });
    expect(sent.map((m) => JSON.parse(String(m.value)).id)).toEqual([event.id]);
  }, 120_000);
});
