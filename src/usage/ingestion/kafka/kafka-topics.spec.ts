import { describe, expect, it, jest } from '@jest/globals';
import type { Logger } from '@nestjs/common';
import type { KafkaConfig } from '../../../config/app-config.js';
import {
  isUnknownTopicError,
  MISSING_TOPIC_CHECK_MAX_MS,
  nextTopicCheckMs,
  TopicPresence,
} from './kafka-topics.js';

const config = { usageTopic: 'usage.v1', deadLetterTopic: 'usage.v1.dlq' } as KafkaConfig;

function presenceOf(topics: string[]) {
  const lines: string[] = [];
  const logger = {
    error: (m: string) => lines.push(`error ${m}`),
    log: (m: string) => lines.push(`log ${m}`),
  } as unknown as Logger;
  const presence = new TopicPresence(
    () => config,
    () => Promise.resolve(topics),
    logger,
  );
  return { presence, lines };
}

describe(TopicPresence.name, () => {
  it('names a missing topic, its setting and the fix in readiness, logged once per change', async () => {
    const topics = ['usage.v1'];
    const { presence, lines } = presenceOf(topics);
    await presence.check();
    await presence.check();
    expect(presence.readinessFailure()).toEqual({
      reason:
        'Kafka dead-letter topic "usage.v1.dlq" (KAFKA_DLQ_TOPIC) does not exist: create it on the broker, or set KAFKA_CREATE_TOPICS=true so docproc creates it at start',
      missingTopics: ['usage.v1.dlq'],
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error Kafka dead-letter topic "usage.v1.dlq" \(KAFKA_DLQ_TOPIC\)/);

    topics.push('usage.v1.dlq');
    await presence.check();
    expect(presence.readinessFailure()).toBeNull();
    expect(lines[1]).toBe(
      'log Kafka dead-letter topic "usage.v1.dlq" (KAFKA_DLQ_TOPIC) exists now',
    );
  });

  it('throws naming the topic and what is held back when a required topic is missing', async () => {
    const { presence } = presenceOf([]);
    await expect(presence.require('usage.v1', 'held back')).rejects.toThrow(
      /^Kafka usage topic "usage.v1" \(KAFKA_USAGE_TOPIC\) does not exist: .*; held back$/,
    );
  });
});

describe('waiting for a missing topic', () => {
  it('waits 250 ms, then twice as long each time, never more than 5 s', () => {
    const waits = [nextTopicCheckMs(null)];
    while (waits.length < 8) waits.push(nextTopicCheckMs(waits[waits.length - 1]));
    expect(waits).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
    expect(MISSING_TOPIC_CHECK_MAX_MS).toBe(5000);
  });

  it('calls back once the topic is listed, at the first check after its creation', async () => {
    jest.useFakeTimers();
    try {
      const topics = ['usage.v1'];
      const { presence } = presenceOf(topics);
      const found = jest.fn();
      presence.whenPresent('usage.v1.dlq', found);
      for (const wait of [250, 500, 1000, 2000, 4000, 5000]) {
        await jest.advanceTimersByTimeAsync(wait);
        expect(found).not.toHaveBeenCalled();
      }
      topics.push('usage.v1.dlq');
      await jest.advanceTimersByTimeAsync(4_999);
      expect(found).not.toHaveBeenCalled();
      await jest.advanceTimersByTimeAsync(1);
      expect(found).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(60_000);
      expect(found).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('stops waiting when told to (shutdown)', async () => {
    jest.useFakeTimers();
    try {
      const { presence } = presenceOf(['usage.v1', 'usage.v1.dlq']);
      const found = jest.fn();
      presence.whenPresent('usage.v1.dlq', found);
      presence.stopWaiting();
      await jest.advanceTimersByTimeAsync(10_000);
      expect(found).not.toHaveBeenCalled();
    } finally {
      jest.useRealTimers();
    }
  });
});

describe(isUnknownTopicError.name, () => {
  it("finds kafkajs' unknown-topic error behind its retries, and nothing else", () => {
    const protocol = Object.assign(new Error('This server does not host this topic-partition'), {
      type: 'UNKNOWN_TOPIC_OR_PARTITION',
    });
    expect(isUnknownTopicError(new Error('retries exceeded', { cause: protocol }))).toBe(true);
    expect(isUnknownTopicError(Object.assign(new Error('x'), { originalError: protocol }))).toBe(
      true,
    );
    expect(isUnknownTopicError(new Error('Connection error'))).toBe(false);
    expect(isUnknownTopicError(undefined)).toBe(false);
  });
});
