import { spawn } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../src/config/app-config.js';
import {
  consumeAll,
  createTestTopic,
  createUsageTopics,
  produce,
  testKafkaBrokers,
} from '../support/kafka.js';

/** Feeds lines to `kcat` in producer mode; resolves when kcat has flushed and exited. */
function kcatProduce(topic: string, lines: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const kcat = spawn(
      'kcat',
      ['-b', testKafkaBrokers().join(','), '-t', topic, '-P', '-K', '\t', '-H', 'origin=kcat'],
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    let stderr = '';
    kcat.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    kcat.on('error', (error) =>
      reject(
        new Error(
          `kcat could not run (scripts/install-test-deps.sh installs it): ${error.message}`,
        ),
      ),
    );
    kcat.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`kcat exited with ${code}: ${stderr}`)),
    );
    kcat.stdin.end(lines.map((l) => `${l}\n`).join(''));
  });
}

describe('the real Kafka broker', () => {
  it('delivers what kafkajs produced, keyed messages staying on one partition in order', async () => {
    const topic = await createTestTopic('test.broker', 3);
    const messages = Array.from({ length: 30 }, (_, i) => ({
      key: `org_${i % 3}`,
      value: JSON.stringify({ seq: i }),
      headers: { 'ce-type': 'docproc.test' },
    }));
    await produce(topic, messages);

    const read = await consumeAll(topic, 20_000);

    expect(read).toHaveLength(30);
    expect(new Set(read.map((m) => m.partition)).size).toBeGreaterThan(1);
    for (const key of ['org_0', 'org_1', 'org_2']) {
      const ofKey = read.filter((m) => m.key === key);
      expect(new Set(ofKey.map((m) => m.partition)).size).toBe(1);
      const seqs = ofKey.map((m) => (JSON.parse(m.value!.toString()) as { seq: number }).seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(seqs).toHaveLength(10);
    }
    expect(read.every((m) => m.headers['ce-type'] === 'docproc.test')).toBe(true);
  });

  it('keeps topics of different specs apart', async () => {
    const [a, b] = await Promise.all([createTestTopic('test.iso'), createTestTopic('test.iso')]);
    expect(a).not.toBe(b);
    await produce(a, [{ key: 'k', value: 'only-in-a' }]);

    expect(await consumeAll(b, 10_000)).toEqual([]);
    expect((await consumeAll(a, 10_000)).map((m) => m.value?.toString())).toEqual(['only-in-a']);
  });

  it('gives a spec its own usage and dead-letter topics that the app config selects', async () => {
    const usage = await createUsageTopics('test.usage');

    expect(loadConfig(usage.env).kafka).toEqual(
      expect.objectContaining({
        brokers: testKafkaBrokers(),
        usageTopic: usage.topic,
        deadLetterTopic: usage.deadLetterTopic,
        consumerGroup: usage.consumerGroup,
      }),
    );
    await produce(usage.deadLetterTopic, [
      { key: 'org_1', value: 'bad', headers: { reason: 'x' } },
    ]);
    const dead = await consumeAll(usage.deadLetterTopic, 10_000);
    expect(dead.map((m) => [m.value?.toString(), m.headers.reason])).toEqual([['bad', 'x']]);
    expect(await consumeAll(usage.topic, 10_000)).toEqual([]);
  });

  it('accepts events from a plain external client (kcat) that kafkajs then reads', async () => {
    const topic = await createTestTopic('test.kcat', 3);
    const event = {
      specversion: '1.0',
      id: 'evt_kcat_1',
      source: 'docproc/kcat',
      type: 'docproc.usage.v1',
      time: '2026-11-21T10:04:05.123Z',
      data: { orgId: 'org_kcat', product: 'classify', pages: 1, credits: '1.000000' },
    };
    await kcatProduce(topic, [`org_kcat\t${JSON.stringify(event)}`, `org_kcat\t{"second":true}`]);

    const read = await consumeAll(topic, 20_000, { atLeast: 2 });

    expect(read).toHaveLength(2);
    expect(read.map((m) => m.key)).toEqual(['org_kcat', 'org_kcat']);
    expect(JSON.parse(read[0].value!.toString())).toEqual(event);
    expect(read[1].value?.toString()).toBe('{"second":true}');
    expect(read[0].headers.origin).toBe('kcat');
  });
});
