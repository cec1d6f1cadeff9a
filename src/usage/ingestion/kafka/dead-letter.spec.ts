import { describe, expect, it } from '@jest/globals';
import type { KafkaMessage } from 'kafkajs';
import { deadLetterMessage, DLQ_HEADER } from './dead-letter.js';

describe(deadLetterMessage.name, () => {
  const original: KafkaMessage = {
    key: Buffer.from('org_1'),
    value: Buffer.from([0xff, 0x00, 0x7b]),
    timestamp: '1700000000000',
    attributes: 0,
    offset: '42',
    headers: { 'x-trace': Buffer.from('abc') },
  };

  it('keeps key, value bytes, timestamp and headers, and adds reason, detail and origin', () => {
    const dead = deadLetterMessage(
      original,
      { topic: 'docproc.usage.v1', partition: 2 },
      { reason: 'malformed_json', detail: 'not valid JSON' },
      new Date('2026-11-21T10:00:00Z'),
    );
    expect(dead.key).toBe(original.key);
    expect(dead.value).toBe(original.value);
    expect(dead.timestamp).toBe('1700000000000');
    expect(dead.headers).toEqual({
      'x-trace': Buffer.from('abc'),
      [DLQ_HEADER.reason]: 'malformed_json',
      [DLQ_HEADER.detail]: 'not valid JSON',
      [DLQ_HEADER.topic]: 'docproc.usage.v1',
      [DLQ_HEADER.partition]: '2',
      [DLQ_HEADER.offset]: '42',
      [DLQ_HEADER.failedAt]: '2026-11-21T10:00:00.000Z',
    });
  });

  it('bounds the detail header', () => {
    const dead = deadLetterMessage(
      original,
      { topic: 't', partition: 0 },
      { reason: 'wrong_type', detail: 'x'.repeat(5000) },
      new Date(),
    );
    expect(String(dead.headers?.[DLQ_HEADER.detail])).toHaveLength(1000);
  });
});
