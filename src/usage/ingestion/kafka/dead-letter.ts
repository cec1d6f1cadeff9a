import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import type { UsageEventRejection } from '../normalized-usage-event.js';
import { isUnknownTopicError, MissingTopicError, type TopicPresence } from './kafka-topics.js';
import type { UsageEventProducer } from './usage-event.producer.js';

/** Headers a dead-lettered usage event carries on top of its original headers. */
export const DLQ_HEADER = {
  reason: 'docproc-dlq-reason',
  detail: 'docproc-dlq-detail',
  topic: 'docproc-dlq-source-topic',
  partition: 'docproc-dlq-source-partition',
  offset: 'docproc-dlq-source-offset',
  failedAt: 'docproc-dlq-failed-at',
} as const;

const MAX_DETAIL_LENGTH = 1_000;

export interface DeadLetterSource {
  topic: string;
  partition: number;
}

/**
 * The dead-letter copy of a refused message: the original key, value bytes, timestamp and
 * headers untouched (so it can be replayed as is once fixed), plus why and where from.
 */
export function deadLetterMessage(
  message: KafkaMessage,
  source: DeadLetterSource,
  rejection: UsageEventRejection,
  failedAt: Date,
): Message {
  const headers: IHeaders = { ...(message.headers ?? {}) };
  headers[DLQ_HEADER.reason] = rejection.reason;
  headers[DLQ_HEADER.detail] = rejection.detail.slice(0, MAX_DETAIL_LENGTH);
  headers[DLQ_HEADER.topic] = source.topic;
  headers[DLQ_HEADER.partition] = String(source.partition);
  headers[DLQ_HEADER.offset] = message.offset;
  headers[DLQ_HEADER.failedAt] = failedAt.toISOString();
  return { key: message.key, value: message.value, timestamp: message.timestamp, headers };
}

/**
 * The refused messages with their reasons: the only part of a batch that stays referenced
 * until its write committed. Built in a function of its own, not in a closure of the
 * consumer's `handleBatch`: V8 keeps one context per function scope, so a closure there that
 * read `messages` would keep the whole
 * batch, and through its value slices kafkajs' fetch buffers, alive in the commit callback
 * for the length of the write (long enough to be promoted to the old generation).
 */
export function refusedMessages(
  messages: KafkaMessage[],
  rejected: { index: number; rejection: UsageEventRejection }[],
): { message: KafkaMessage; rejection: UsageEventRejection }[] {
  return rejected.map(({ index, rejection }) => ({ message: messages[index], rejection }));
}

/** Where dead letters go: the producer, and the topic with what is known of its presence. */
export interface DeadLetterTarget {
  producer: () => UsageEventProducer;
  presence: TopicPresence;
}

const HELD_BACK =
  "the batch's offsets stay uncommitted, so its events are consumed again once it exists (nothing is lost)";

/**
 * Sends the refused messages of one fetched batch to the dead-letter topic (acks = all).
 * A topic known to be missing is listed again (it may have been created since) rather than
 * sent to: kafkajs would retry for about 40 s and then fail without naming the topic.
 */
export async function sendDeadLetters(
  target: DeadLetterTarget,
  source: DeadLetterSource,
  refused: { message: KafkaMessage; rejection: UsageEventRejection }[],
): Promise<void> {
  const { presence } = target;
  const topic = presence.deadLetterTopic();
  if (presence.isMissing(topic.topic)) await presence.require(topic.topic, HELD_BACK);
  const failedAt = new Date();
  try {
    await target.producer().sendTo(
      topic.topic,
      refused.map(({ message, rejection }) =>
        deadLetterMessage(message, source, rejection, failedAt),
      ),
    );
  } catch (error) {
    if (!isUnknownTopicError(error)) throw error;
    // Readiness says so from now on (and the next batches fail at once).
    await presence.check().catch(() => undefined);
    throw new MissingTopicError(topic, HELD_BACK, { cause: error });
  }
}
