import { CompressionTypes, Partitioners, type Kafka, type Message, type Producer } from 'kafkajs';
import type { UsageCloudEvent } from '../../usage-event.js';

/** Content type header of every usage event we publish (CloudEvents structured mode). */
export const CLOUDEVENTS_JSON = 'application/cloudevents+json; charset=utf-8';

/**
 * The producer side of the usage plane: publishes usage CloudEvents to the usage topic.
 *
 * - Idempotent producer (acks = all, unlimited retries, broker-side dedupe of retried
 *   batches), so a network blip never writes an event twice into the topic; the consumer
 *   dedupes on (source, id) anyway, so a *re*-publish of the same event is harmless too.
 * - Key = orgId: one org's events stay in one partition (ordered, and the consumer's
 *   per-org work stays local), with the Java-compatible murmur2 partitioner.
 * - `publish` resolves only once the broker acknowledged every event; a rejection means
 *   the caller still owns the events (keep them in the outbox and retry).
 *
 * ```ts
 * const producer = new UsageEventProducer(createKafka({ brokers, clientId }), 'docproc.usage.v1');
 * await producer.connect();
 * await producer.publish([event]);
 * await producer.disconnect();
 * ```
 */
export class UsageEventProducer {
  private readonly producer: Producer;
  private connected: Promise<void> | null = null;

  constructor(
    kafka: Kafka,
    readonly topic: string,
  ) {
    this.producer = kafka.producer({
      // Topics are created by KAFKA_CREATE_TOPICS or the operator, with their partitions,
      // never as a send's side effect on a broker that auto-creates with its defaults.
      allowAutoTopicCreation: false,
      idempotent: true,
      // kafkajs assigns sequence numbers when a request is built; with more than one request
      // in flight a retried request can arrive out of sequence and fail the producer.
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
  }

  /** Connects once; concurrent callers share the same attempt, a failed attempt can be retried. */
  connect(): Promise<void> {
    this.connected ??= this.producer.connect().catch((error: unknown) => {
      this.connected = null;
      throw error;
    });
    return this.connected;
  }

  async publish(events: readonly UsageCloudEvent[]): Promise<void> {
    await this.send(
      events.map((event) => ({
        key: event.data.orgId,
        value: JSON.stringify(event),
        headers: { 'content-type': CLOUDEVENTS_JSON },
      })),
    );
  }

  /**
   * Publishes already-serialized events (backfills from NDJSON) byte for byte. The key is
   * the orgId when the text is a JSON object that has one; anything else is still sent,
   * so the consumer's validation dead-letters it with a reason instead of it vanishing here.
   */
  async publishRaw(values: readonly string[]): Promise<(string | null)[]> {
    const keys = values.map(orgIdOf);
    await this.send(values.map((value, i) => ({ key: keys[i], value })));
    return keys;
  }

  /**
   * Sends to any topic through this idempotent producer (the consumer's dead-letter path).
   * Large lists go in several requests: kafkajs puts one send's messages for a partition
   * in one record batch, and the broker refuses batches over `message.max.bytes` (1 MiB).
   */
  async sendTo(topic: string, messages: Message[]): Promise<void> {
    if (messages.length === 0) return;
    await this.connect();
    for (const chunk of chunksOf(messages, MAX_REQUEST_BYTES)) {
      await this.producer.send({
        topic,
        messages: chunk,
        acks: -1,
        compression: CompressionTypes.None,
      });
    }
  }

  async disconnect(): Promise<void> {
    if (this.connected === null) return;
    this.connected = null;
    await this.producer.disconnect();
  }

  private send(messages: Message[]): Promise<void> {
    return this.sendTo(this.topic, messages);
  }
}

/** Below the broker's default 1 MiB `message.max.bytes`, with room for batch overhead. */
const MAX_REQUEST_BYTES = 768 * 1024;

function sizeOf(message: Message): number {
  const bytes = (v: unknown) =>
    v == null ? 0 : Buffer.isBuffer(v) ? v.length : Buffer.byteLength(String(v));
  let size = 70 + bytes(message.key) + bytes(message.value);
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    size +=
      name.length + (Array.isArray(value) ? value.reduce((n, v) => n + bytes(v), 0) : bytes(value));
  }
  return size;
}

function* chunksOf(messages: Message[], maxBytes: number): Generator<Message[]> {
  let chunk: Message[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = sizeOf(message);
    if (chunk.length > 0 && bytes + size > maxBytes) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(message);
    bytes += size;
  }
  if (chunk.length > 0) yield chunk;
}

function orgIdOf(text: string): string | null {
  try {
    const parsed: unknown = JSON.parse(text);
    const data = (parsed as { data?: { orgId?: unknown } } | null)?.data;
    return typeof data?.orgId === 'string' ? data.orgId : null;
  } catch {
    return null;
  }
}
