import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { seedAccount, type SeededAccount } from '../support/accounts.js';
import { buildDist } from '../support/child-app.js';
import { consumeAll, createTestTopic } from '../support/kafka.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usageEventMix } from '../support/usage-event-mix.js';
import {
  expectExportOfLast30Days,
  groupCaughtUp,
  kafkaAppEnv,
  waitFor,
} from '../support/usage-kafka.js';

const run = promisify(execFile);

let buildDir: string;
let t: TestApp;
let org: SeededAccount;
let topic: string;
let env: Record<string, string>;
let cliDataDir: string;

beforeAll(async () => {
  [buildDir, topic] = await Promise.all([buildDist('usage-cli'), createTestTopic('usage-cli', 3)]);
  env = kafkaAppEnv(topic);
  t = await startTestApp(env);
  org = await seedAccount(t.app, 'Acme');
  cliDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-cli-'));
}, 180_000);

afterAll(async () => {
  await t?.close();
  fs.rmSync(cliDataDir, { recursive: true, force: true });
});

describe('docproc-admin usage publish', () => {
  it('sends an NDJSON file to the usage topic; the consumer ingests the events and dead-letters bad lines', async () => {
    const events = usageEventMix([org.orgId], 5_000, { seed: 21, prefix: 'cli' });
    const file = path.join(cliDataDir, 'backfill.ndjson');
    const lines = [...events.map((e) => JSON.stringify(e)), '{"not": "an event"}'];
    fs.writeFileSync(file, `${lines.join('\n')}\n\n`);

    const { stdout } = await run(
      process.execPath,
      [path.join(buildDir, 'src', 'cli.js'), 'usage', 'publish', '--file', file],
      {
        env: {
          PATH: process.env.PATH,
          DATA_DIR: cliDataDir,
          KAFKA_BROKERS: env.KAFKA_BROKERS,
          KAFKA_USAGE_TOPIC: topic,
          LOG_LEVEL: 'error',
        },
        timeout: 60_000,
      },
    );
    expect(JSON.parse(stdout)).toEqual({ topic, published: 5_001, unkeyed: 1 });

    await waitFor('ingestion', () => groupCaughtUp(topic, env.KAFKA_CONSUMER_GROUP));
    await expectExportOfLast30Days(t.baseUrl, org, events);
    const dead = await consumeAll(`${topic}.dlq`, 20_000, { atLeast: 1 });
    expect(dead.map((d) => d.headers['docproc-dlq-reason'])).toEqual(['invalid_envelope']);
  }, 120_000);

  it('refuses with a clear message when KAFKA_BROKERS is not set', async () => {
    const file = path.join(cliDataDir, 'one.ndjson');
    fs.writeFileSync(file, '{}\n');
    const failure = await run(
      process.execPath,
      [path.join(buildDir, 'src', 'cli.js'), 'usage', 'publish', '--file', file],
      { env: { PATH: process.env.PATH, DATA_DIR: cliDataDir }, timeout: 60_000 },
    ).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(/KAFKA_BROKERS/);
  }, 60_000);
});
