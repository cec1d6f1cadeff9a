#!/usr/bin/env node
// Kafka ingestion benchmark (`npm run bench:ingest`, after `npm run build`):
//   node bench/ingest.bench.mjs [--events 2000000] [--latency-seconds 20] [--latency-rate 20000]
//                               [--baseline-events 20000] [--partitions 3]
//   BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles the server process.
//
// 1. Produces N usage events (5 orgs, 3 partitions) to a fresh topic on the local broker
//    (KAFKA_BROKERS, or the one `scripts/kafka.sh start` runs).
// 2. Starts the real server (`node dist/src/main.js`) as a child on a fresh DATA_DIR and
//    measures how fast its consumer drains that backlog into DuckDB (events/s, from the
//    server's own /metrics), sampling the child's RSS.
// 3. With the consumer caught up, produces a steady load with timestamped probe events
//    and polls the export API until each probe is queryable: produce-to-queryable p50/p99.
// 4. Stops the server and, on the same DuckDB file, inserts events one INSERT at a time:
//    the row-by-row baseline, reported as a ratio.
/* global fetch */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { benchArgs, localBrokers } from './local-kafka.mjs';
import { eventJson } from './usage-events.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => path.join(ROOT, 'dist', 'src', p);

const args = benchArgs();
const TOTAL = Number(args.events ?? 2_000_000);
const PARTITIONS = Number(args.partitions ?? 3);
const LATENCY_SECONDS = Number(args['latency-seconds'] ?? 20);
const LATENCY_RATE_ARG = args['latency-rate'] ? Number(args['latency-rate']) : null;
const BASELINE_EVENTS = Number(args['baseline-events'] ?? 20_000);
const BASELINE_SECONDS = Number(args['baseline-seconds'] ?? 15);

const { Kafka, logLevel, Partitioners } = await import('kafkajs');
await import('reflect-metadata');
const { loadConfig } = await import(dist('config/app-config.js'));
const { createApp } = await import(dist('app.factory.js'));
const { AccountsService } = await import(dist('accounts/accounts.service.js'));
const { ApiKeyService } = await import(dist('accounts/keys/api-key.service.js'));

const log = (...parts) => console.error('[bench]', ...parts);
const sleep = (ms) => delay(ms);

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Orgs and an account key, seeded before the server owns the DuckDB file. */
async function seed(dataDir) {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error' });
  const app = await createApp(config);
  await app.init();
  const accounts = app.get(AccountsService);
  const keys = app.get(ApiKeyService);
  const user = await accounts.createUser('bench@example.com');
  const orgIds = [];
  for (let i = 0; i < 6; i++) {
    const org = await accounts.createOrg(`bench-${i}`);
    await accounts.addMember(org.orgId, user.userId);
    orgIds.push(org.orgId);
  }
  const probeOrg = orgIds.pop();
  const key = await keys.createAccountKey(user.userId, { defaultOrgId: probeOrg });
  await app.close();
  return { orgIds, probeOrg, accountKey: key.secret };
}

async function produceBacklog(producer, topic, orgIds) {
  const now = Date.now();
  const started = performance.now();
  const PER_SEND = 2_000; // ~0.8 MB per request, under the broker's 1 MiB batch limit per partition
  const IN_FLIGHT = 4;
  let next = 0;
  async function worker() {
    while (next < TOTAL) {
      const from = next;
      next = Math.min(TOTAL, next + PER_SEND);
      const messages = [];
      for (let i = from; i < next; i++) {
        messages.push({ key: orgIds[i % orgIds.length], value: eventJson(i, orgIds, now) });
      }
      await producer.send({ topic, messages, acks: 1 });
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return TOTAL / ((performance.now() - started) / 1000);
}

/** User + system CPU seconds the process has used (all its threads, DuckDB's included). */
function cpuSecondsOf(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
}

async function metric(baseUrl, name) {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? 0);
}

/** DuckDB's own accounting (docproc_duckdb_memory_bytes), MiB per component. */
async function duckdbMemoryMB(baseUrl) {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const byComponent = {};
  for (const [, component, bytes] of text.matchAll(
    /^docproc_duckdb_memory_bytes\{component="([^"]+)"\} (\S+)/gm,
  )) {
    byComponent[component] = Math.round(Number(bytes) / 2 ** 20);
  }
  return byComponent;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main() {
  const kafkaBrokers = localBrokers();
  const kafka = new Kafka({
    clientId: 'bench',
    brokers: kafkaBrokers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const topic = `bench.usage.${Date.now()}`;
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({
    waitForLeaders: true,
    topics: [
      { topic, numPartitions: PARTITIONS },
      { topic: `${topic}.dlq`, numPartitions: 1 },
    ],
  });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-bench-ingest-'));
  const { orgIds, probeOrg, accountKey } = await seed(dataDir);

  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  log(`producing ${TOTAL} events to ${topic} on ${kafkaBrokers}`);
  const produceRate = await produceBacklog(producer, topic, orgIds);
  log(`produced at ${Math.round(produceRate)} events/s`);

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const group = `bench-${Date.now()}`;
  // BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, dist('main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      KAFKA_BROKERS: kafkaBrokers,
      KAFKA_USAGE_TOPIC: topic,
      KAFKA_CONSUMER_GROUP: group,
      KAFKA_LAG_INTERVAL_MS: '1000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }

  // Phase 2: drain the backlog.
  let peakRss = 0;
  const samples = [];
  let firstAt = null;
  let ingested = 0;
  const drainStarted = performance.now();
  const cpuAtStart = cpuSecondsOf(child.pid);
  while (ingested < TOTAL) {
    await sleep(500);
    ingested = await metric(baseUrl, 'docproc_usage_events_ingested_total');
    const { rss, hwm } = rssOf(child.pid);
    peakRss = Math.max(peakRss, rss, hwm);
    const at = performance.now();
    if (ingested > 0 && firstAt === null) firstAt = { at, ingested };
    samples.push({ at, ingested });
    if (at - drainStarted > 30 * 60_000) throw new Error('drain took more than 30 minutes');
  }
  const drainCpuSeconds = cpuSecondsOf(child.pid) - cpuAtStart;
  const last = samples[samples.length - 1];
  const sustained = (last.ingested - firstAt.ingested) / ((last.at - firstAt.at) / 1000);
  const windows = [];
  for (let i = 10; i < samples.length; i += 10) {
    const a = samples[i - 10];
    const b = samples[i];
    windows.push((b.ingested - a.ingested) / ((b.at - a.at) / 1000));
  }
  windows.sort((a, b) => a - b);
  const batches = await metric(baseUrl, 'docproc_usage_batch_write_seconds_count');
  const writeSeconds = await metric(baseUrl, 'docproc_usage_batch_write_seconds_sum');
  log(`drained ${TOTAL} at ${Math.round(sustained)} events/s; ${batches} batches`);
  // Where the memory is at the end of the drain: V8 heap, buffers outside it, the rest native.
  const mib = async (name) => Math.round((await metric(baseUrl, name)) / 2 ** 20);
  const memoryAfterDrain = {
    rssMB: Math.round(rssOf(child.pid).rss / 2 ** 20),
    heapUsedMB: await mib('nodejs_heap_size_used_bytes'),
    heapTotalMB: await mib('nodejs_heap_size_total_bytes'),
    externalMB: await mib('nodejs_external_memory_bytes'),
    duckdbMB: await duckdbMemoryMB(baseUrl),
  };

  // Phase 3: produce-to-queryable latency under a steady load below the measured capacity
  // (a load above it only measures queueing).
  const LATENCY_RATE =
    LATENCY_RATE_ARG ?? Math.max(1_000, Math.round((sustained * 0.5) / 1_000) * 1_000);
  log(`latency phase: ${LATENCY_SECONDS} s at ${LATENCY_RATE} events/s with a probe every 50 ms`);
  const probeLatencies = [];
  const pending = new Map();
  let probeSeq = 0;
  let loadSeq = TOTAL;
  const now = Date.now();
  const stopAt = performance.now() + LATENCY_SECONDS * 1000;
  const tickMs = 50;
  const perTick = Math.round((LATENCY_RATE * tickMs) / 1000);
  const loadLoop = (async () => {
    while (performance.now() < stopAt) {
      const tickStart = performance.now();
      const messages = [];
      for (let i = 0; i < perTick; i++, loadSeq++) {
        messages.push({
          key: orgIds[loadSeq % orgIds.length],
          value: eventJson(loadSeq, orgIds, now),
        });
      }
      const probe = probeSeq++;
      const probeEvent = JSON.parse(eventJson(probe, [probeOrg], Date.now(), 'probe'));
      probeEvent.time = new Date().toISOString();
      probeEvent.data.apiKeyId = `probe_${probe}`;
      messages.push({ key: probeOrg, value: JSON.stringify(probeEvent) });
      pending.set(`probe_${probe}`, performance.now());
      await producer.send({ topic, messages, acks: 1 });
      await sleep(Math.max(0, tickMs - (performance.now() - tickStart)));
    }
  })();
  const today = new Date().toISOString().slice(0, 10);
  const pollLoop = (async () => {
    while (
      performance.now() < stopAt + 10_000 &&
      (pending.size > 0 || performance.now() < stopAt)
    ) {
      const res = await fetch(
        `${baseUrl}/api/v1/usage/export?orgId=${probeOrg}&groupBy=api_key&startDate=${today}&endDate=${today}`,
        { headers: { authorization: `Bearer ${accountKey}` } },
      );
      const body = await res.json();
      const seenAt = performance.now();
      for (const row of body.data ?? []) {
        const sentAt = pending.get(row.group);
        if (sentAt !== undefined) {
          probeLatencies.push(seenAt - sentAt);
          pending.delete(row.group);
        }
      }
      const { rss } = rssOf(child.pid);
      peakRss = Math.max(peakRss, rss);
      await sleep(10);
    }
  })();
  await Promise.all([loadLoop, pollLoop]);
  probeLatencies.sort((a, b) => a - b);
  peakRss = Math.max(peakRss, rssOf(child.pid).hwm);
  child.kill('SIGTERM');
  await exited;
  await producer.disconnect();
  await admin.deleteTopics({ topics: [topic, `${topic}.dlq`] }).catch(() => undefined);
  await admin.disconnect();

  // Phase 4: row-by-row INSERT baseline on the same DuckDB file.
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(path.join(dataDir, 'docproc.duckdb'));
  const connection = await instance.connect();
  const baselineStart = performance.now();
  const insert = await connection.prepare(
    `INSERT INTO usage_events VALUES (md5_number($1 || chr(0) || $2), $1, $2, $3, CAST($4 AS TIMESTAMPTZ),
       CAST($5 AS DATE), $6, $7, $8, $9, $10, CAST($11 AS DECIMAL(18, 6)), $12, $13, $14, NULL, 0, now())
     ON CONFLICT DO NOTHING`,
  );
  let baselineDone = 0;
  for (let i = 0; i < BASELINE_EVENTS; i++) {
    if (performance.now() - baselineStart > BASELINE_SECONDS * 1000) break;
    baselineDone++;
    const e = JSON.parse(eventJson(i, orgIds, now, 'row'));
    insert.bind([
      e.source,
      e.id,
      e.data.orgId,
      e.time,
      e.time.slice(0, 10),
      e.data.product,
      e.data.feature,
      e.data.apiKeyId,
      e.data.fileType,
      e.data.pages,
      e.data.credits,
      e.data.jobId,
      e.data.async,
      e.data.metadata ? JSON.stringify(e.data.metadata) : null,
    ]);
    await insert.run();
  }
  const baseline = baselineDone / ((performance.now() - baselineStart) / 1000);
  log(`row-by-row baseline: ${baselineDone} INSERTs at ${Math.round(baseline)} events/s`);
  connection.closeSync();
  instance.closeSync();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const result = {
    events: TOTAL,
    partitions: PARTITIONS,
    cpus: os.cpus().length,
    loadAverage1m: Number(os.loadavg()[0].toFixed(2)),
    produceEventsPerSec: Math.round(produceRate),
    sustainedEventsPerSec: Math.round(sustained),
    serverCpuSecondsPerMillionEvents: Math.round((drainCpuSeconds / TOTAL) * 1e6),
    eventsPerServerCpuSecond: Math.round(TOTAL / drainCpuSeconds),
    windowEventsPerSec5s: {
      min: Math.round(windows[0] ?? sustained),
      median: Math.round(percentile(windows, 50) ?? sustained),
      max: Math.round(windows[windows.length - 1] ?? sustained),
    },
    batches,
    meanEventsPerBatch: Math.round(TOTAL / Math.max(1, batches)),
    meanBatchWriteMs: Number(((writeSeconds / Math.max(1, batches)) * 1000).toFixed(1)),
    latency: {
      loadEventsPerSec: LATENCY_RATE,
      probes: probeLatencies.length,
      unseenProbes: pending.size,
      p50Ms: Math.round(percentile(probeLatencies, 50)),
      p99Ms: Math.round(percentile(probeLatencies, 99)),
      maxMs: Math.round(probeLatencies[probeLatencies.length - 1]),
    },
    peakRssMB: Math.round(peakRss / 1024 / 1024),
    memoryAfterDrain,
    rowByRowBaselineEvents: baselineDone,
    rowByRowBaselineEventsPerSec: Math.round(baseline),
    speedupVsRowByRow: Number((sustained / baseline).toFixed(1)),
  };
  console.log(JSON.stringify(result, null, 2));
}

await main();
