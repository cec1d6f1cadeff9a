import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { DedicatedKafka, startDedicatedKafka } from '../support/kafka.js';

describe('a dedicated broker that a spec restarts', () => {
  let broker: DedicatedKafka;
  beforeAll(async () => {
    broker = await startDedicatedKafka();
  }, 120_000);
  afterAll(async () => {
    await broker?.remove();
  }, 60_000);

  it('keeps acknowledged messages across a stop and start, and clients reconnect', async () => {
    const kafka = new Kafka({
      clientId: 'docproc-test-restart',
      brokers: broker.brokers,
      logLevel: logLevel.NOTHING,
      retry: { retries: 20, initialRetryTime: 200, maxRetryTime: 2000 },
    });
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    await producer.send({
      topic: 'docproc.usage.v1',
      acks: -1,
      messages: [{ key: 'org_1', value: 'before' }],
    });

    await broker.stop();
    await broker.start();
    // The same producer connection pool reconnects to the restarted broker.
    await producer.send({
      topic: 'docproc.usage.v1',
      acks: -1,
      messages: [{ key: 'org_1', value: 'after' }],
    });
    await producer.disconnect();

    const consumer = kafka.consumer({ groupId: 'docproc-test-restart', maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topic: 'docproc.usage.v1', fromBeginning: true });
    const values: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`read only ${values}`)), 30_000);
      void consumer.run({
        eachMessage: async ({ message }) => {
          values.push(message.value?.toString() ?? '');
          if (values.length === 2) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
    await consumer.disconnect();

    expect(values).toEqual(['before', 'after']);
  }, 120_000);
});
