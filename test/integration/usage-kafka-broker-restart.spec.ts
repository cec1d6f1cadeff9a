import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createKafka } from '../../src/usage/ingestion/kafka/kafka-client.js';
import { UsageEventProducer } from '../../src/usage/ingestion/kafka/usage-event.producer.js';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import { seedAccount, type SeededAccount } from '../support/accounts.js';
import { againOnSamePorts, onFreePorts, PORT_TAKEN, PortTaken } from '../support/free-port.mjs';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usageEventMix } from '../support/usage-event-mix.js';
import {
  expectExportOfLast30Days,
  groupCaughtUp,
  groupOffsets,
  kafkaAppEnv,
  waitFor,
} from '../support/usage-kafka.js';

const run = promisify(execFile);
const SCRIPT = path.resolve(import.meta.dirname, '../../scripts/kafka.sh');

/**
 * This spec stops and starts a broker, so it runs its own instance on free ports (the
 * script keeps one data directory per port) instead of the shared test broker.
 */
let brokerEnv: Record<string, string>;
let brokers: string[];
let t: TestApp | undefined;
let org: SeededAccount;
let topic: string;
let group: string;

async function broker(command: 'start' | 'stop' | 'reset'): Promise<void> {
  await run('bash', [SCRIPT, command], {
    // The broker script creates this spec's topics with Kafka's own tool, which waits for
    // their leaders; kafkajs' createTopics can give up on KRaft's brief unknown-topic answer.
    env: { ...process.env, ...brokerEnv, KAFKA_TOPICS: `${topic} ${topic}.dlq` },
    timeout: 180_000,
  });
}

/** Starts the broker on brokerEnv's ports; PortTaken when another process bound one first. */
async function startBroker(): Promise<void> {
  try {
    await broker('start');
  } catch (error) {
    if (!PORT_TAKEN.test(String((error as { stderr?: unknown }).stderr))) throw error;
    throw new PortTaken(`a port of the broker was taken: ${String(error)}`);
  }
}

beforeAll(async () => {
  topic = `usage-restart.${Date.now()}`;
  await onFreePorts(2, async ([port, controller]) => {
    brokerEnv = { KAFKA_PORT: String(port), KAFKA_CONTROLLER_PORT: String(controller) };
    try {
      await startBroker();
    } catch (error) {
      // A broker on new ports is a new instance: this one's data goes.
      if (error instanceof PortTaken) await broker('reset');
      throw error;
    }
  });
  brokers = [`127.0.0.1:${brokerEnv.KAFKA_PORT}`];
  const env = {
    ...kafkaAppEnv(topic),
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_STALL_TIMEOUT_MS: '5000',
  };
  group = env.KAFKA_CONSUMER_GROUP;
  t = await startTestApp(env);
  org = await seedAccount(t.app, 'Acme');
}, 240_000);

afterAll(async () => {
  await t?.close();
  if (brokerEnv) await broker('reset');
}, 120_000);

async function publish(events: UsageCloudEvent[]): Promise<void> {
  const producer = new UsageEventProducer(
    createKafka({ brokers, clientId: 'restart-producer' }),
    topic,
  );
  await producer.connect();
  try {
    await producer.publish(events);
  } finally {
    await producer.disconnect();
  }
}

/** What a failed catch-up wait reports: offsets, events ingested and the consumer's readiness. */
async function consumerState(): Promise<string> {
  const ready = (await (await fetch(`${t!.baseUrl}/ready`)).json()) as {
    checks?: Record<string, unknown>;
    error?: { checks?: Record<string, unknown> };
  };
  const checks = ready.checks ?? ready.error?.checks ?? {};
  return JSON.stringify({
    offsets: await groupOffsets(topic, group, brokers),
    ingested: await ingested(),
    usageConsumer: checks.usageConsumer,
  });
}

async function ingested(): Promise<number> {
  const text = await (await fetch(`${t!.baseUrl}/metrics`)).text();
  return Number(/^docproc_usage_events_ingested_total (\d+)/m.exec(text)?.[1] ?? 0);
}

describe('Kafka usage ingestion across a broker restart', () => {
  it('reconnects after the broker comes back and catches up; the export equals the reference', async () => {
    const before = usageEventMix([org.orgId], 20_000, { seed: 1, prefix: 'before' });
    await waitFor('the topic to exist', async () => {
      const admin = createKafka({ brokers, clientId: 'restart-admin' }).admin();
      await admin.connect();
      try {
        return (await admin.listTopics()).includes(topic);
      } finally {
        await admin.disconnect();
      }
    });
    await publish(before);
    // Stop the broker in the middle of ingestion.
    await waitFor('ingestion to start', async () => (await ingested()) > 0, 60_000, 20);
    await broker('stop');
    // How much of the first batch was in before the stop is a race (all of it on a fast
    // machine); the second batch, published after the restart, always crosses it.
    process.stdout.write(`ingested at the broker stop: ${await ingested()} of ${before.length}\n`);

    // Clients know the broker by its address: it comes back on the same port, waiting for the
    // port should another process have bound it while the broker was down.
    await againOnSamePorts(startBroker, 120_000);
    const after = usageEventMix([org.orgId], 2_000, { seed: 2, prefix: 'after' });
    await publish(after);
    await waitFor(
      'the consumer to catch up',
      async () => {
        if (await groupCaughtUp(topic, group, brokers)) return true;
        // Thrown, not returned: the last state is part of the timeout message.
        throw new Error(`not caught up: ${await consumerState()}`);
      },
      180_000,
      500,
    );
    expect(await ingested()).toBe(22_000);

    await expectExportOfLast30Days(t!.baseUrl, org, [...before, ...after]);
    await waitFor('ready', async () => (await fetch(`${t!.baseUrl}/ready`)).status === 200, 30_000);
  }, 400_000);
});
