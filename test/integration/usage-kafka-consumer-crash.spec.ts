import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AssignerProtocol, Kafka, logLevel, type Consumer, type PartitionAssigner } from 'kafkajs';
import { createKafka } from '../../src/usage/ingestion/kafka/kafka-client.js';
import { UsageEventProducer } from '../../src/usage/ingestion/kafka/usage-event.producer.js';
import { seedAccount, type SeededAccount } from '../support/accounts.js';
import { createUsageTopics, testKafkaBrokers } from '../support/kafka.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usageEventMix } from '../support/usage-event-mix.js';
import {
  expectExportOfLast30Days,
  groupCaughtUp,
  kafkaAppEnv,
  waitFor,
} from '../support/usage-kafka.js';

/**
 * A member speaking a partition-assignment protocol the app's consumer does not know. While
 * it is in the group, the broker answers the app's join with INCONSISTENT_GROUP_PROTOCOL, an
 * error kafkajs does not retry: its consumer crashes and is not restarted by kafkajs (as
 * after "Failed to find group coordinator" while a broker restarts). It assigns nothing, so
 * it never reads the topic.
 */
const foreignAssigner: PartitionAssigner = () => ({
  name: 'ForeignAssigner',
  version: 1,
  async assign({ members }) {
    return members.map(({ memberId }) => ({
      memberId,
      memberAssignment: AssignerProtocol.MemberAssignment.encode({
        version: 1,
        assignment: {},
        userData: Buffer.alloc(0),
      }),
    }));
  },
  protocol({ topics }) {
    return {
      name: 'ForeignAssigner',
      metadata: AssignerProtocol.MemberMetadata.encode({
        version: 1,
        topics,
        userData: Buffer.alloc(0),
      }),
    };
  },
});

let t: TestApp | undefined;
let foreign: Consumer | undefined;
let org: SeededAccount;
let topic: string;
let group: string;

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${t!.baseUrl}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
}

beforeAll(async () => {
  topic = (await createUsageTopics('usage-crash')).topic;
  const env = kafkaAppEnv(topic);
  group = env.KAFKA_CONSUMER_GROUP;
  foreign = new Kafka({
    clientId: 'foreign-member',
    brokers: testKafkaBrokers(),
    logLevel: logLevel.NOTHING,
  }).consumer({ groupId: group, partitionAssigners: [foreignAssigner] });
  const joined = new Promise<void>((resolve) => {
    foreign!.on(foreign!.events.GROUP_JOIN, () => resolve());
  });
  await foreign.connect();
  await foreign.subscribe({ topics: [topic] });
  await foreign.run({ eachBatch: async () => undefined });
  await joined;
  t = await startTestApp(env);
  org = await seedAccount(t.app, 'Acme');
}, 120_000);

afterAll(async () => {
  await foreign?.disconnect();
  await t?.close();
});

describe('Kafka usage consumer after a crash kafkajs does not restart from', () => {
  it('is replaced by a new consumer, which ingests everything once the group accepts it', async () => {
    await waitFor(
      'the consumer to crash',
      async () => (await metric('docproc_usage_consumer_crashes_total')) > 0,
      60_000,
    );
    const events = usageEventMix([org.orgId], 500, { seed: 5, prefix: 'crash' });
    const producer = new UsageEventProducer(
      createKafka({ brokers: testKafkaBrokers(), clientId: 'crash-producer' }),
      topic,
    );
    await producer.connect();
    await producer.publish(events).finally(() => producer.disconnect());
    await foreign!.disconnect();
    foreign = undefined;

    await waitFor('the consumer to catch up', () => groupCaughtUp(topic, group), 120_000, 500);
    expect(await metric('docproc_usage_events_ingested_total')).toBe(events.length);
    await expectExportOfLast30Days(t!.baseUrl, org, events);
    await waitFor('ready', async () => (await fetch(`${t!.baseUrl}/ready`)).status === 200, 30_000);
  }, 300_000);
});
