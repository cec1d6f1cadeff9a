import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import type { UsageEventRejection } from '../normalized-usage-event.js';
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

/** Sends the refused messages of one fetched batch to the dead-letter topic (acks = all). */
export async function sendDeadLetters(
  producer: UsageEventProducer,
  deadLetterTopic: string,
  source: DeadLetterSource,
  refused: { message: KafkaMessage; rejection: UsageEventRejection }[],
): Promise<void> {
  const failedAt = new Date();
  await producer.sendTo(
    deadLetterTopic,
    refused.map(({ message, rejection }) =>
      deadLetterMessage(message, source, rejection, failedAt),
    ),
  );
}
