import { randomUUID } from 'node:crypto';
import { IHeaders, Kafka, logLevel, Partitioners } from 'kafkajs';

/** The real broker of this test run (started by global setup or scripts/test-all.sh). */
export function testKafkaBrokers(): string[] {
  const raw = process.env.TEST_KAFKA_BROKERS;
  if (!raw) {
    throw new Error(
      'TEST_KAFKA_BROKERS is not set: run the specs through jest (its global setup starts ' +
        'Kafka with scripts/kafka.sh) and do not set DOCPROC_TEST_SERVICES=none',
    );
  }
  return raw.split(',').map((b) => b.trim());
}

function testKafka(clientId: string): Kafka {
  return new Kafka({
    clientId,
    brokers: testKafkaBrokers(),
    // Failures reach the specs as rejections; kafkajs' own log of retried ones is noise.
    logLevel: logLevel.NOTHING,
    retry: { retries: 5 },
  });
}

/**
 * Creates a topic with a name no other spec uses (specs run in parallel against one broker)
 * and waits until every partition has a leader. Returns the name.
 */
export async function createTestTopic(prefix: string, partitions = 3): Promise<string> {
  const topic = `${prefix}.${randomUUID().slice(0, 8)}`;
  await createTopics([topic], partitions);
  return topic;
}

/**
 * Creates topics and waits until every partition has a leader. kafkajs' own
 * `waitForLeaders` gives up when a KRaft broker still answers "unknown topic" for a moment
 * after creating one (seen on a loaded machine), so the wait here retries until a deadline.
 */
async function createTopics(topics: string[], partitions: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  const admin = testKafka('docproc-test-admin').admin();
  await admin.connect();
  try {
    await admin.createTopics({
      topics: topics.map((topic) => ({ topic, numPartitions: partitions, replicationFactor: 1 })),
      waitForLeaders: false,
    });
    for (;;) {
      try {
        const { topics: found } = await admin.fetchTopicMetadata({ topics });
        const led = found.every(
          (t) => t.partitions.length === partitions && t.partitions.every((p) => p.leader >= 0),
        );
        if (led) return;
      } catch (error) {
        // Whatever the broker answers while it settles, only the deadline ends the wait.
        if (Date.now() > deadline) throw error;
      }
      if (Date.now() > deadline)
        throw new Error(`topics ${topics} have no leaders after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await admin.disconnect();
  }
}

/** Topics and group of their own for one app under test, and the env that selects them. */
export interface TestUsageTopics {
  topic: string;
  deadLetterTopic: string;
  consumerGroup: string;
  /** For `startTestApp(env)`: KAFKA_BROKERS, KAFKA_USAGE_TOPIC, KAFKA_DLQ_TOPIC, KAFKA_CONSUMER_GROUP. */
  env: Record<string, string>;
}

/** A private usage topic, its dead-letter topic and a consumer group for one spec's app. */
export async function createUsageTopics(prefix: string, partitions = 3): Promise<TestUsageTopics> {
  const topic = `${prefix}.${randomUUID().slice(0, 8)}`;
  const deadLetterTopic = `${topic}.dlq`;
  await createTopics([topic, deadLetterTopic], partitions);
  const consumerGroup = `${topic}.group`;
  return {
    topic,
    deadLetterTopic,
    consumerGroup,
    env: {
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      KAFKA_USAGE_TOPIC: topic,
      KAFKA_DLQ_TOPIC: deadLetterTopic,
      KAFKA_CONSUMER_GROUP: consumerGroup,
    },
  };
}

export interface TestMessage {
  key?: string | null;
  value: string | Buffer | null;
  headers?: IHeaders;
  partition?: number;
}

/**
 * Messages per produce request: one request's batch for a partition must stay under the
 * broker's `message.max.bytes` (1 MB), and keyed messages may all land on one partition.
 */
const PRODUCE_SLICE = 500;

/**
 * Produces messages in order and waits until the broker acknowledged all of them (acks = all).
 * Idempotent, as the app's producer is: a request retried after a timeout on a loaded machine
 * (its first attempt written after all) must not store its messages twice.
 */
export async function produce(topic: string, messages: TestMessage[]): Promise<void> {
  await produceInSlices(topic, messages, PRODUCE_SLICE, () => Promise.resolve(false));
}

/**
 * `produce`, `sliceSize` messages per request, each acknowledged before the next is sent;
 * after each, `afterSlice(sent)` (how many are acknowledged so far) may stop it by returning
 * true, e.g. to act on a consumer at a known point of the stream. Returns how many were sent.
 */
export async function produceInSlices(
  topic: string,
  messages: TestMessage[],
  sliceSize: number,
  afterSlice: (sent: number) => Promise<boolean>,
): Promise<number> {
  const producer = testKafka('docproc-test-producer').producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    idempotent: true,
    maxInFlightRequests: 1,
  });
  await producer.connect();
  try {
    for (let sent = 0; sent < messages.length;) {
      const slice = messages.slice(sent, sent + Math.min(sliceSize, PRODUCE_SLICE));
      await producer.send({ topic, messages: slice, acks: -1 });
      sent += slice.length;
      if (await afterSlice(sent)) return sent;
    }
    return messages.length;
  } finally {
    await producer.disconnect();
  }
}

export interface ConsumedMessage {
  partition: number;
  offset: string;
  key: string | null;
  value: Buffer | null;
  headers: Record<string, string>;
}

export interface ConsumeOptions {
  /** Wait until the topic holds at least this many messages before reading (default 0). */
  atLeast?: number;
}

function isRetriable(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { retriable?: unknown }).retriable === true
  );
}

/**
 * End offsets per partition. Right after a topic is created the broker may still answer
 * "leader not available" for a moment; those retriable answers are retried until `deadline`.
 */
async function endOffsets(
  kafka: Kafka,
  topic: string,
  deadline: number,
): Promise<Map<number, bigint>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    for (;;) {
      try {
        const offsets = await admin.fetchTopicOffsets(topic);
        return new Map(offsets.map((o) => [o.partition, BigInt(o.high)]));
      } catch (error) {
        if (!isRetriable(error) || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    await admin.disconnect();
  }
}

function total(ends: Map<number, bigint>): number {
  let sum = 0n;
  for (const end of ends.values()) sum += end;
  return Number(sum);
}

/**
 * Reads every message in the topic, from the beginning up to the end offsets at the time of
 * the call (after waiting for `atLeast` messages), ordered by partition then offset.
 * Fails after `timeoutMs` rather than returning a partial read.
 */
export async function consumeAll(
  topic: string,
  timeoutMs = 15_000,
  options: ConsumeOptions = {},
): Promise<ConsumedMessage[]> {
  const deadline = Date.now() + timeoutMs;
  const kafka = testKafka('docproc-test-reader');
  let ends = await endOffsets(kafka, topic, deadline);
  while (total(ends) < (options.atLeast ?? 0)) {
    if (Date.now() > deadline) {
      throw new Error(
        `consumeAll(${topic}): ${total(ends)} messages after ${timeoutMs} ms, ` +
          `expected at least ${options.atLeast}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    ends = await endOffsets(kafka, topic, deadline);
  }
  const messages: ConsumedMessage[] = [];
  // kafkajs restarts a consumer after retriable failures and, with nothing committed, fetches
  // a partition from its beginning again: positions already read are not read twice.
  const seen = new Set<string>();
  const pending = new Set([...ends].filter(([, end]) => end > 0n).map(([p]) => p));
  if (pending.size === 0) return messages;

  // A throwaway group: the reader must not share committed offsets with anything else.
  const consumer = kafka.consumer({
    groupId: `docproc-test-reader-${randomUUID()}`,
    maxWaitTimeInMs: 100,
  });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `consumeAll(${topic}): partitions ${[...pending]} unread after ${timeoutMs} ms`,
            ),
          ),
        Math.max(deadline - Date.now(), 1),
      );
      // kafkajs restarts the consumer itself after retriable failures (such as a group
      // coordinator still loading); only a crash it gives up on fails the read.
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        if (payload.restart) return;
        clearTimeout(timer);
        reject(payload.error);
      });
      consumer
        .run({
          autoCommit: false,
          eachMessage: async ({ partition, message }) => {
            const end = ends.get(partition) ?? 0n;
            const offset = BigInt(message.offset);
            if (offset >= end) return;
            const position = `${partition}:${message.offset}`;
            if (seen.has(position)) return;
            seen.add(position);
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(message.headers ?? {})) {
              if (value === undefined) continue;
              headers[name] = Array.isArray(value) ? value.map(String).join(',') : String(value);
            }
            messages.push({
              partition,
              offset: message.offset,
              key: message.key === null ? null : message.key.toString('utf8'),
              value: message.value,
              headers,
            });
            if (offset + 1n >= end) {
              pending.delete(partition);
              if (pending.size === 0) {
                clearTimeout(timer);
                resolve();
              }
            }
          },
        })
        .catch((error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        });
    });
  } finally {
    await consumer.disconnect();
  }
  return messages.sort((a, b) =>
    a.partition !== b.partition
      ? a.partition - b.partition
      : Number(BigInt(a.offset) - BigInt(b.offset)),
  );
}
