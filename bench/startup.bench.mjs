#!/usr/bin/env node
// Start-up probe (after `npm run build`):
//   node bench/startup.bench.mjs [--runs 10] [--roots DIR[,DIR...]] [--events 20000]
// The server's start-up alone, without a drain's noise: a small backlog (--events, 60 days)
// waits on a fresh topic; each run starts the server as `npm start` does (scripts/server.sh)
// on a fresh copy of one seeded DATA_DIR ("first"), stops it and starts it again on that
// DATA_DIR ("restart"), each start with a fresh consumer group, and measures from the spawn
// to the first 200 of /health (polled every 10 ms) and to the first events written
// (inserted or duplicates, polled on /metrics every 20 ms), then stops it.
// --roots: checkouts to compare (each built, each its own scripts/server.sh and dist/), run
// alternately in the same window (A, B, A, B, ...); the first one seeds. Default: this one.
// BENCH_SERVER_NODE_ARGS is passed to the servers through NODE_OPTIONS (e.g. --cpu-prof).
/* global fetch */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePorts } from '../test/support/free-port.mjs';
import { benchArgs, localBrokers } from './local-kafka.mjs';
import { eventJson } from './usage-events.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = benchArgs();
const RUNS = Number(args.runs ?? 10);
const EVENTS = Number(args.events ?? 20_000);
const ROOTS = (args.roots ?? ROOT).split(',').map((root) => path.resolve(root));

const { Kafka, logLevel, Partitioners } = await import('kafkajs');
await import('reflect-metadata');
const dist = (p) => path.join(ROOTS[0], 'dist', 'src', p);
const { loadConfig } = await import(dist('config/app-config.js'));
const { createApp } = await import(dist('app.factory.js'));
const { AccountsService } = await import(dist('accounts/accounts.service.js'));

/** A DATA_DIR with its store migrated and five orgs, as the ingest bench seeds it. */
async function seed(dataDir) {
  const app = await createApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error' }));
  await app.init();
  const accounts = app.get(AccountsService);
  const orgIds = [];
  for (let i = 0; i < 5; i++) orgIds.push((await accounts.createOrg(`startup-${i}`)).orgId);
  await app.close();
  return orgIds;
}

/** Events written so far: inserted, or found stored already (a restart reads them again). */
async function stored(baseUrl) {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const value = (name) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? 0);
  return (
    value('docproc_usage_events_ingested_total') + value('docproc_usage_events_duplicate_total')
  );
}

/** User + system CPU milliseconds of a process (all its threads); server.sh execs node. */
function cpuMsOf(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // In clock ticks of 10 ms (USER_HZ 100, as the ingest bench reads them).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Polls `probe` every `everyMs` until it resolves true; the time it did. */
async function until(probe, everyMs, child) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if (await probe()) return performance.now();
    } catch {
      // not listening yet
    }
    await sleep(everyMs);
  }
}

async function startOnce(root, dataDir, brokers, topic, run) {
  const [port] = await freePorts(1);
  const baseUrl = `http://127.0.0.1:${port}`;
  const nodeOptions = [process.env.NODE_OPTIONS, process.env.BENCH_SERVER_NODE_ARGS]
    .filter(Boolean)
    .join(' ');
  const startedAt = performance.now();
  const child = spawn('sh', [path.join(root, 'scripts', 'server.sh')], {
    cwd: root,
    env: {
      ...process.env,
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
      ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      KAFKA_BROKERS: brokers,
      KAFKA_USAGE_TOPIC: topic,
      KAFKA_CONSUMER_GROUP: `startup-${Date.now()}-${run}`,
      USAGE_LATE_EVENT_WINDOW_DAYS: '61',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const healthAt = await until(async () => (await fetch(`${baseUrl}/health`)).ok, 10, child);
    const cpuToHealthMs = cpuMsOf(child.pid);
    const storedAt = await until(async () => (await stored(baseUrl)) > 0, 20, child);
    return {
      toHealthMs: Math.round(healthAt - startedAt),
      toFirstEventsStoredMs: Math.round(storedAt - startedAt),
      // On a machine whose cores are shared, the CPU a start took moves less than its time.
      cpuToHealthMs,
      cpuToFirstEventsStoredMs: cpuMsOf(child.pid),
    };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/**
 * A first start on a fresh copy of the seeded DATA_DIR, then a restart on that same DATA_DIR
 * (what it keeps between starts, e.g. a compile cache, kept too), each with its own group.
 */
async function startTwice(root, template, brokers, topic, run) {
  const dataDir = `${template}-run${run}`;
  fs.cpSync(template, dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o700);
  try {
    const first = await startOnce(root, dataDir, brokers, topic, `${run}-first`);
    const restart = await startOnce(root, dataDir, brokers, topic, `${run}-restart`);
    return { first, restart };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return {
    median: sorted[Math.floor((sorted.length - 1) / 2)],
    mean: Math.round(mean),
    min: sorted[0],
    max: sorted[sorted.length - 1],
  };
}

async function main() {
  const brokers = localBrokers();
  const kafka = new Kafka({
    clientId: 'startup-bench',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  const topic = `bench.startup.${Date.now()}`;
  await admin.createTopics({
    waitForLeaders: true,
    topics: [
      { topic, numPartitions: 3 },
      { topic: `${topic}.dlq`, numPartitions: 1 },
    ],
  });
  const template = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-bench-startup-'));
  try {
    const orgIds = await seed(template);
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    const now = Date.now();
    for (let from = 0; from < EVENTS; from += 2_000) {
      const messages = [];
      for (let i = from; i < Math.min(EVENTS, from + 2_000); i++) {
        messages.push({
          key: orgIds[i % orgIds.length],
          value: eventJson(i, orgIds, now, 's', 60),
        });
      }
      await producer.send({ topic, messages, acks: 1 });
    }
    await producer.disconnect();
    const results = ROOTS.map(() => []);
    for (let run = 0; run < RUNS; run++) {
      for (const [i, root] of ROOTS.entries()) {
        const result = await startTwice(root, template, brokers, topic, `${run}-${i}`);
        results[i].push(result);
        console.error(`[startup] ${root} run ${run + 1}: ${JSON.stringify(result)}`);
      }
    }
    const summary = ROOTS.map((root, i) => ({
      root,
      ...Object.fromEntries(
        ['first', 'restart'].map((start) => [
          start,
          {
            toHealthMs: stats(results[i].map((r) => r[start].toHealthMs)),
            toFirstEventsStoredMs: stats(results[i].map((r) => r[start].toFirstEventsStoredMs)),
            cpuToHealthMs: stats(results[i].map((r) => r[start].cpuToHealthMs)),
            cpuToFirstEventsStoredMs: stats(
              results[i].map((r) => r[start].cpuToFirstEventsStoredMs),
            ),
          },
        ]),
      ),
    }));
    console.log(
      JSON.stringify(
        {
          runs: RUNS,
          events: EVENTS,
          cpus: os.cpus().length,
          loadAverage1m: Number(os.loadavg()[0].toFixed(2)),
          summary,
        },
        null,
        2,
      ),
    );
  } finally {
    await admin.deleteTopics({ topics: [topic, `${topic}.dlq`] }).catch(() => undefined);
    await admin.disconnect();
    fs.rmSync(template, { recursive: true, force: true });
  }
}

await main();
