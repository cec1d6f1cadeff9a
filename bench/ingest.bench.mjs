#!/usr/bin/env node
// Kafka ingestion benchmark (`npm run bench:ingest`, after `npm run build`):
//   node bench/ingest.bench.mjs [--events 1000000] [--latency-seconds 20] [--latency-rate 20000]
//                               [--partitions 3] [--producer kcat|kafkajs] [--days 60]
//                               [--store duckdb|clickhouse] [--processes 1] [--floor yes|no]
//                               [--restart-backlog third|second|no]
//   --days: the span of the events' times (60: a backlog of two months; 1: one day). The
//     server's USAGE_LATE_EVENT_WINDOW_DAYS is widened to cover it (as an operator loading
//     such a backlog through the topic would), unless set in the environment.
//   --store clickhouse: USAGE_STORE=clickhouse against CLICKHOUSE_URL (or the server
//     `scripts/clickhouse.sh start` runs); the ClickHouse server's CPU counts in the figures.
//   --processes N: N docproc servers in one consumer group (each its own DATA_DIR copy).
//   BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles the server process.
//
// 1. Produces N usage events (5 orgs, 3 partitions) to a fresh topic on the local broker
//    (KAFKA_BROKERS, or the one `scripts/kafka.sh start` runs), before the server starts.
// 2. Starts the real server as `npm start` does (`scripts/server.sh`, which execs
//    `node dist/src/main.js` with the launcher's memory settings) on a fresh DATA_DIR and
//    measures how fast its consumer drains that backlog into DuckDB (events/s, from the
//    server's own /metrics), its CPU per event and its peak RSS.
// 3. Resets the child's RSS high-water mark, produces a second batch of N new events on top
//    and measures the same again: the second batch's peak against the first is the memory
//    growth with history.
// 3b. Stops the servers, produces a batch while they are down and starts them again on their
//    stores: that backlog timed as the first (from /health to drained, the producer outside
//    the window). --restart-backlog third (default): after the second batch, on top of 2 N
//    stored events; second: it is the second batch (on top of N) and the batch produced on
//    arrival the third; no: skipped.
// 4. With the consumer caught up, produces a steady load with timestamped probe events
//    and polls the export API until each probe is queryable: produce-to-queryable p50/p99.
// 5. The floor, in the same run: a bare kafkajs consumer (same fetch settings) reading the
//    first batch's messages and JSON.parse-ing each, in this process with the server idle.
/* global fetch, URL */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { startOnFreePort } from '../test/support/free-port.mjs';
import { drainTimed } from './kafka-drain.mjs';
import { benchArgs, localBrokers } from './local-kafka.mjs';
import { eventJson } from './usage-events.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => path.join(ROOT, 'dist', 'src', p);

const args = benchArgs();
const TOTAL = Number(args.events ?? 1_000_000);
const PARTITIONS = Number(args.partitions ?? 3);
const LATENCY_SECONDS = Number(args['latency-seconds'] ?? 20);
const LATENCY_RATE_ARG = args['latency-rate'] ? Number(args['latency-rate']) : null;
const DAYS = Number(args.days ?? 60);
const STORE = args.store ?? 'duckdb';
if (!['duckdb', 'clickhouse'].includes(STORE)) throw new Error('--store is duckdb or clickhouse');
const PROCESSES = Number(args.processes ?? 1);
const FLOOR = (args.floor ?? 'yes') === 'yes';
/** Which batch waits for a restart (the servers stopped while it is produced), if any. */
const RESTART_BACKLOG = args['restart-backlog'] ?? 'third';
if (!['third', 'second', 'no'].includes(RESTART_BACKLOG)) {
  throw new Error('--restart-backlog is third, second or no');
}
/**
 * Who produces the two batches: kcat (librdkafka, the issue's check) when it is installed,
 * else the bench's own kafkajs producer. The second batch is produced while the server
 * drains it on the same cores, and kafkajs costs several times kcat's CPU per event there.
 */
const PRODUCER = args.producer ?? (onPath('kcat') ? 'kcat' : 'kafkajs');
if (!['kcat', 'kafkajs'].includes(PRODUCER)) throw new Error('--producer is kcat or kafkajs');

const { Kafka, logLevel, Partitioners } = await import('kafkajs');
await import('reflect-metadata');
const { loadConfig } = await import(dist('config/app-config.js'));
const { createApp } = await import(dist('app.factory.js'));
const { AccountsService } = await import(dist('accounts/accounts.service.js'));
const { ApiKeyService } = await import(dist('accounts/keys/api-key.service.js'));

const log = (...parts) => console.error('[bench]', ...parts);
const sleep = (ms) => delay(ms);

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

function onPath(command) {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir && fs.existsSync(path.join(dir, command)));
}

/** When the last batch began to arrive on the topic (its first produce request). */
let produceStartedAt = 0;
/** The CPU seconds the last batch's producer used (kcat's, or this process's kafkajs producer's). */
let producerCpuSeconds = 0;

/** Produces one batch with the producer PRODUCER names; resolves to its events/s. */
function produceBacklog(producer, topic, orgIds, offset = 0) {
  return PRODUCER === 'kcat'
    ? produceWithKcat(topic, orgIds, offset)
    : produceWithKafkajs(producer, topic, orgIds, offset);
}

/**
 * Writes the batch as `key<TAB>value` lines first, then times kcat producing the file,
 * with Java's (and kafkajs') murmur2 partitioner, so each org lands on the same partition
 * whichever producer is used.
 */
async function produceWithKcat(topic, orgIds, offset) {
  const now = Date.now();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-bench-kcat-')), 'batch');
  const out = fs.createWriteStream(file);
  for (let i = offset; i < offset + TOTAL; i++) {
    const line = `${orgIds[i % orgIds.length]}\t${eventJson(i, orgIds, now, 'b', DAYS)}\n`;
    if (!out.write(line)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  const started = performance.now();
  produceStartedAt = started;
  // Through bash's `time`, for kcat's CPU seconds: the second batch's producer runs on the
  // cores the server drains it with.
  const kcatArgs = [
    '-P',
    '-b',
    localBrokers(),
    '-t',
    topic,
    '-K',
    '\t',
    '-X',
    'partitioner=murmur2_random',
    '-l',
    file,
  ];
  const kcat = spawn(
    'bash',
    ['-c', 'TIMEFORMAT="kcat-cpu %U %S"; time kcat "$@"', 'kcat', ...kcatArgs],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let kcatStderr = '';
  kcat.stderr.on('data', (chunk) => (kcatStderr += chunk));
  const code = await new Promise((resolve) => kcat.once('exit', resolve));
  const times = /kcat-cpu (\S+) (\S+)/.exec(kcatStderr);
  producerCpuSeconds = times ? Number(times[1]) + Number(times[2]) : 0;
  process.stderr.write(kcatStderr.replace(/kcat-cpu .*\n?/, ''));
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  if (code !== 0) throw new Error(`kcat exited with ${code}`);
  return TOTAL / ((performance.now() - started) / 1000);
}

async function produceWithKafkajs(producer, topic, orgIds, offset) {
  const now = Date.now();
  const started = performance.now();
  produceStartedAt = started;
  const cpuBefore = process.cpuUsage();
  const PER_SEND = 2_000; // ~0.8 MB per request, under the broker's 1 MiB batch limit per partition
  const IN_FLIGHT = 4;
  let next = offset;
  async function worker() {
    while (next < offset + TOTAL) {
      const from = next;
      next = Math.min(offset + TOTAL, next + PER_SEND);
      const messages = [];
      for (let i = from; i < next; i++) {
        messages.push({
          key: orgIds[i % orgIds.length],
          value: eventJson(i, orgIds, now, 'b', DAYS),
        });
      }
      await producer.send({ topic, messages, acks: 1 });
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const cpu = process.cpuUsage(cpuBefore);
  producerCpuSeconds = (cpu.user + cpu.system) / 1e6;
  return TOTAL / ((performance.now() - started) / 1000);
}

/** User + system CPU seconds the process has used (all its threads, DuckDB's included). */
function cpuSecondsOf(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The ClickHouse server: its URL and pid (CPU counted with docproc's), started if need be. */
function localClickHouse() {
  // The server CLICKHOUSE_URL names, when set: its CPU is the one to count, not the default port's.
  const env = { ...process.env };
  if (process.env.CLICKHOUSE_URL) {
    env.CLICKHOUSE_HTTP_PORT = new URL(process.env.CLICKHOUSE_URL).port || '8123';
  }
  const out = execFileSync('bash', [path.join(ROOT, 'scripts/clickhouse.sh'), 'start'], {
    encoding: 'utf8',
    env,
  });
  const url = process.env.CLICKHOUSE_URL ?? /CLICKHOUSE_URL=(\S+)/.exec(out)[1];
  const status = execFileSync('bash', [path.join(ROOT, 'scripts/clickhouse.sh'), 'status'], {
    encoding: 'utf8',
    env,
  });
  return { url, pid: Number(/pid (\d+)/.exec(status)[1]) };
}

/** The servers' ingested events together (several processes share one consumer group). */
async function ingestedTotal(servers) {
  let total = 0;
  for (const server of servers) {
    total += await metric(server.baseUrl, 'docproc_usage_events_ingested_total');
  }
  return total;
}

function rssOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
}

async function metricsText(baseUrl) {
  return (await fetch(`${baseUrl}/metrics`)).text();
}

function valueIn(text, name) {
  return Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? 0);
}

async function metric(baseUrl, name) {
  return valueIn(await metricsText(baseUrl), name);
}

/** DuckDB's own accounting (docproc_duckdb_memory_bytes), MiB per component. */
function duckdbMemoryMB(text) {
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

/**
 * Samples the servers' ingested counters until they reach `target`: events/s from the first
 * sample with progress to the last, the CPU seconds of the servers and of `extraPids` (the
 * ClickHouse server), the first server's peak RSS, the 5 s windows, and when it drained.
 */
async function drain(servers, extraPids, target) {
  const sum = async (name) => {
    let total = 0;
    for (const server of servers) total += await metric(server.baseUrl, name);
    return total;
  };
  const { baseUrl, pid } = servers[0];
  const pids = [...servers.map((server) => server.pid), ...extraPids];
  const cpuOfAll = () => pids.reduce((total, p) => total + cpuSecondsOf(p), 0);
  const before = await ingestedTotal(servers);
  const batchesBefore = await sum('docproc_usage_batch_write_seconds_count');
  const writeSecondsBefore = await sum('docproc_usage_batch_write_seconds_sum');
  let peakRss = 0;
  // The breakdown at the sample with the highest RSS (the true peak may fall between samples).
  let peakSampledRss = 0;
  let atPeak = null;
  const samples = [];
  let firstAt = null;
  let ingested = before;
  const started = performance.now();
  const cpuAtStart = cpuOfAll();
  const broker = kafkaBrokerPid();
  const brokerAtStart = broker ? cpuSecondsOf(broker) : 0;
  const extraAtStart = extraPids.reduce((total, p) => total + cpuSecondsOf(p), 0);
  while (ingested < target) {
    await sleep(500);
    ingested = await ingestedTotal(servers);
    const { rss, hwm } = rssOf(pid);
    if (rss > peakSampledRss) {
      peakSampledRss = rss;
      atPeak = await memoryOf(baseUrl, pid);
    }
    peakRss = Math.max(peakRss, rss, hwm);
    const at = performance.now();
    if (ingested > before && firstAt === null) firstAt = { at, ingested };
    samples.push({ at, ingested, cpu: cpuOfAll() });
    if (at - started > 30 * 60_000) throw new Error('drain took more than 30 minutes');
  }
  const cpuSeconds = cpuOfAll() - cpuAtStart;
  const storeCpuSeconds = extraPids.reduce((total, p) => total + cpuSecondsOf(p), 0) - extraAtStart;
  const last = samples[samples.length - 1];
  const batches = (await sum('docproc_usage_batch_write_seconds_count')) - batchesBefore;
  const writeSeconds = (await sum('docproc_usage_batch_write_seconds_sum')) - writeSecondsBefore;
  const eventsPerSec =
    last.at > firstAt.at
      ? (last.ingested - firstAt.ingested) / ((last.at - firstAt.at) / 1000)
      : last.ingested - before;
  return {
    eventsPerSec,
    cpuSeconds,
    storeCpuSeconds,
    brokerCpuSeconds: broker ? cpuSecondsOf(broker) - brokerAtStart : null,
    peakRss,
    atPeak,
    samples,
    windows: windowsSince(samples, started),
    batches,
    writeSeconds,
    drainedAt: last.at,
    firstProgressAt: firstAt.at,
  };
}

/**
 * The 5 s windows' events/s (sorted) from `since` on: the second batch's from its arrival,
 * not from the seconds before it, while the bench writes the batch's file and nothing is
 * there to drain.
 */
function windowsSince(samples, since) {
  const from = samples.filter((sample) => sample.at >= since);
  const windows = [];
  for (let i = 10; i < from.length; i += 10) {
    const a = from[i - 10];
    const b = from[i];
    windows.push((b.ingested - a.ingested) / ((b.at - a.at) / 1000));
  }
  return windows.sort((a, b) => a - b);
}

/**
 * The events/s and the server's CPU cores in use between consecutive samples from `origin`
 * (seconds since it): where a batch's drain slowed down, and whether the server was busy.
 */
function timeline(samples, origin) {
  return samples
    .filter((sample) => sample.at >= origin)
    .map((sample, i, all) => {
      const previous = all[i - 1];
      if (!previous) return null;
      const seconds = (sample.at - previous.at) / 1000;
      return {
        atS: Number(((sample.at - origin) / 1000).toFixed(1)),
        eventsPerSec: Math.round((sample.ingested - previous.ingested) / seconds),
        serverCores: Number(((sample.cpu - previous.cpu) / seconds).toFixed(2)),
      };
    })
    .filter(Boolean);
}

/** The local broker's pid when `scripts/kafka.sh` runs it (its CPU is the machine's too), else null. */
let brokerPid;
function kafkaBrokerPid() {
  if (brokerPid !== undefined) return brokerPid;
  try {
    const status = execFileSync('bash', [path.join(ROOT, 'scripts/kafka.sh'), 'status'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [, port, pid] = /running: \S+:(\d+) \(pid (\d+)/.exec(status) ?? [];
    brokerPid = pid && localBrokers().includes(`:${port}`) ? Number(pid) : null;
  } catch {
    brokerPid = null;
  }
  return brokerPid;
}

function summary(batch) {
  const { windows } = batch;
  return {
    eventsPerSec: Math.round(batch.eventsPerSec),
    windowEventsPerSec5s: {
      min: Math.round(windows[0] ?? batch.eventsPerSec),
      median: Math.round(percentile(windows, 50) ?? batch.eventsPerSec),
      max: Math.round(windows[windows.length - 1] ?? batch.eventsPerSec),
    },
    writes: batch.batches,
    meanEventsPerWrite: Math.round(TOTAL / Math.max(1, batch.batches)),
    meanWriteMs: Number(((batch.writeSeconds / Math.max(1, batch.batches)) * 1000).toFixed(1)),
    peakRssMB: Math.round(batch.peakRss / 2 ** 20),
    memoryAtPeakSample: batch.atPeak,
  };
}

/** Where the memory is: V8 heap, buffers outside it, DuckDB's own accounting; the rest native. */
async function memoryOf(baseUrl, pid) {
  // One scrape: this runs at every new RSS high during a drain, beside the server measured.
  const text = await metricsText(baseUrl);
  const mib = (name) => Math.round(valueIn(text, name) / 2 ** 20);
  return {
    rssMB: Math.round(rssOf(pid).rss / 2 ** 20),
    heapUsedMB: mib('nodejs_heap_size_used_bytes'),
    heapTotalMB: mib('nodejs_heap_size_total_bytes'),
    externalMB: mib('nodejs_external_memory_bytes'),
    duckdbMB: duckdbMemoryMB(text),
  };
}

/** Resets the kernel's RSS high-water mark (VmHWM) of `pid`, so the next peak is the next batch's. */
function resetPeakRss(pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch (error) {
    log(`could not reset VmHWM (${String(error)}); the second peak is sampled only`);
  }
}

/** kafkajs alone (the service's fetch settings), JSON.parse of each value: the floor. */
async function kafkajsFloor(kafka, topic) {
  const { events, seconds, cpuMicros } = await drainTimed(kafka, {
    topic,
    groupId: `${topic}-floor`,
    total: TOTAL,
    partitions: PARTITIONS,
    settings: loadConfig({ KAFKA_BROKERS: 'unused:9092' }).kafka.consumer,
    handle: (value) => JSON.parse(value.toString('utf8')),
  });
  return {
    events,
    eventsPerSec: Math.round(events / seconds),
    cpuMicrosPerEvent: Number((cpuMicros / events).toFixed(1)),
  };
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
  log(`producing ${TOTAL} events to ${topic} on ${kafkaBrokers} with ${PRODUCER}`);
  const produceRate = await produceBacklog(producer, topic, orgIds);
  log(`produced at ${Math.round(produceRate)} events/s`);

  const clickhouse = STORE === 'clickhouse' ? localClickHouse() : null;
  const storeEnv = clickhouse
    ? {
        USAGE_STORE: 'clickhouse',
        CLICKHOUSE_URL: clickhouse.url,
        CLICKHOUSE_DATABASE: `bench_${Date.now()}`,
      }
    : {};
  const extraPids = clickhouse ? [clickhouse.pid] : [];
  const group = `bench-${Date.now()}`;
  // BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server
  // (through NODE_OPTIONS, which the launcher passes on).
  const nodeOptions = [process.env.NODE_OPTIONS, process.env.BENCH_SERVER_NODE_ARGS]
    .filter(Boolean)
    .join(' ');
  const dataDirs = [dataDir];
  for (let i = 1; i < PROCESSES; i++) {
    // Accounts live in DuckDB, one file per process: the others get copies of the seeded one.
    fs.cpSync(dataDir, `${dataDir}-${i}`, { recursive: true });
    dataDirs.push(`${dataDir}-${i}`);
  }
  /** Starts the server on `ownDir` and `port`, as `npm start` does (scripts/server.sh). */
  function launchServer(ownDir, port) {
    const child = spawn('sh', [path.join(ROOT, 'scripts', 'server.sh')], {
      cwd: ROOT,
      env: {
        ...process.env,
        // The launcher runs `node` from PATH: this one.
        PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
        ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
        DATA_DIR: ownDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        KAFKA_BROKERS: kafkaBrokers,
        KAFKA_USAGE_TOPIC: topic,
        KAFKA_CONSUMER_GROUP: group,
        KAFKA_LAG_INTERVAL_MS: '1000',
        // A backlog spread over more days than the live topic's late-event window is loaded
        // by an operator who widens the window for it (otherwise its oldest events are
        // dead-lettered as late_event and never counted).
        USAGE_LATE_EVENT_WINDOW_DAYS:
          process.env.USAGE_LATE_EVENT_WINDOW_DAYS ?? String(Math.max(35, DAYS + 1)),
        ...storeEnv,
      },
      // BENCH_SERVER_LOG=<file> keeps the server's log (warnings and errors) there.
      stdio: [
        'ignore',
        process.env.BENCH_SERVER_LOG
          ? fs.openSync(`${process.env.BENCH_SERVER_LOG}.${dataDirs.indexOf(ownDir)}`, 'a')
          : 'ignore',
        'pipe',
      ],
    });
    // Its stderr still reaches the terminal; its end is kept to tell a taken port.
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      stderr = (stderr + chunk).slice(-4000);
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    return { child, output: () => stderr, exited };
  }
  /** Starts the servers on their DATA_DIRs (a restart keeps each one's store and group). */
  async function startServers() {
    const started = await Promise.all(
      dataDirs.map(async (ownDir) => {
        const { launched, port } = await startOnFreePort(
          'the server',
          (port) => launchServer(ownDir, port),
          600_000,
        );
        const { child, exited } = launched;
        return { baseUrl: `http://127.0.0.1:${port}`, pid: child.pid, child, exited };
      }),
    );
    for (const { baseUrl } of started) {
      for (;;) {
        try {
          if ((await fetch(`${baseUrl}/health`)).ok) break;
        } catch {
          // not listening yet
        }
        await sleep(100);
      }
    }
    return started;
  }
  // The clock a user starts when they start the server on a waiting backlog.
  const startedAt = performance.now();
  let servers = await startServers();
  const healthyAt = performance.now();
  let { baseUrl, child } = servers[0];

  // Phase 2: drain the first batch (the backlog); phase 3: a second batch on top of it.
  const first = await drain(servers, extraPids, TOTAL);
  const firstFromStart = TOTAL / ((first.drainedAt - startedAt) / 1000);
  const firstFromHealth = TOTAL / ((first.drainedAt - healthyAt) / 1000);
  log(`first batch: ${JSON.stringify(summary(first))}, from start ${Math.round(firstFromStart)}/s`);
  const memoryAfterDrain = await memoryOf(baseUrl, child.pid);

  /** Phase 3: a batch produced on top while the servers run, timed from its arrival. */
  async function arrivalPhase(batchIndex) {
    resetPeakRss(child.pid);
    // A restarted process counts its inserted events from 0: the target is relative.
    const target = (await ingestedTotal(servers)) + TOTAL;
    const produce = produceBacklog(producer, topic, orgIds, batchIndex * TOTAL);
    const drained = await drain(servers, extraPids, target);
    const produceRate = await produce;
    const fromArrival = TOTAL / ((drained.drainedAt - produceStartedAt) / 1000);
    drained.windows = windowsSince(drained.samples, produceStartedAt);
    log(
      `batch ${batchIndex + 1} on arrival (produced at ${Math.round(produceRate)} events/s): ${JSON.stringify(summary(drained))}, from arrival ${Math.round(fromArrival)}/s`,
    );
    return {
      drained,
      produceRate,
      producerCpuSeconds,
      fromArrival,
      arrivedAt: produceStartedAt,
      storedBefore: batchIndex * TOTAL,
    };
  }

  /**
   * Phase 3b: a backlog waiting after a restart or an outage, measured as the first one: the
   * servers stopped, the batch produced while they are down (its producer's CPU outside the
   * window, as the first batch's), the servers started again on their stores and timed from
   * start and from /health to drained.
   */
  async function restartPhase(batchIndex) {
    for (const server of servers) server.child.kill('SIGTERM');
    for (const server of servers) await server.exited;
    const produceRate = await produceBacklog(producer, topic, orgIds, batchIndex * TOTAL);
    const restartedAt = performance.now();
    servers = await startServers();
    const restartHealthyAt = performance.now();
    ({ baseUrl, child } = servers[0]);
    // A restarted process counts its inserted events from 0 again.
    const drained = await drain(servers, extraPids, TOTAL);
    const fromHealth = TOTAL / ((drained.drainedAt - restartHealthyAt) / 1000);
    log(
      `batch ${batchIndex + 1} after a restart: ${JSON.stringify(summary(drained))}, from /health ${Math.round(fromHealth)}/s`,
    );
    return {
      drained,
      restartedAt,
      restartHealthyAt,
      produceRate,
      storedBefore: batchIndex * TOTAL,
    };
  }

  // The second batch arrives on top of the first while the server runs (as it always did);
  // the backlog after a restart comes third, or second with --restart-backlog second.
  let restart = null;
  if (RESTART_BACKLOG === 'second') restart = await restartPhase(1);
  const arrival = await arrivalPhase(RESTART_BACKLOG === 'second' ? 2 : 1);
  if (RESTART_BACKLOG === 'third') restart = await restartPhase(2);
  const second = arrival.drained;
  const secondProduceRate = arrival.produceRate;
  const secondProducerCpuSeconds = arrival.producerCpuSeconds;
  const secondFromArrival = arrival.fromArrival;
  // BENCH_TIMELINE=<file>: both batches' samples (from /health, from the arrival) there.
  if (process.env.BENCH_TIMELINE) {
    fs.writeFileSync(
      process.env.BENCH_TIMELINE,
      JSON.stringify({
        first: timeline(first.samples, healthyAt),
        second: timeline(second.samples, arrival.arrivedAt),
        ...(restart && {
          afterRestart: timeline(restart.drained.samples, restart.restartHealthyAt),
        }),
      }),
    );
  }
  const sustained = Math.min(first.eventsPerSec, second.eventsPerSec);
  let peakRss = Math.max(second.peakRss, restart?.drained.peakRss ?? 0);

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
  for (const server of servers) server.child.kill('SIGTERM');
  for (const server of servers) await server.exited;
  await producer.disconnect();

  // Phase 5: the floor, kafkajs alone reading the first batch's messages.
  const floor = FLOOR ? await kafkajsFloor(kafka, topic) : null;
  log(`floor (kafkajs + JSON.parse): ${JSON.stringify(floor)}`);
  await admin.deleteTopics({ topics: [topic, `${topic}.dlq`] }).catch(() => undefined);
  await admin.disconnect();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  if (clickhouse) {
    await fetch(clickhouse.url, {
      method: 'POST',
      body: `DROP DATABASE IF EXISTS ${storeEnv.CLICKHOUSE_DATABASE}`,
    });
  }

  const cpuMicros = (batch) => Number(((batch.cpuSeconds / TOTAL) * 1e6).toFixed(1));
  const result = {
    eventsPerBatch: TOTAL,
    days: DAYS,
    store: STORE,
    processes: PROCESSES,
    partitions: PARTITIONS,
    // What a user sees: a backlog waiting when the server starts, drained and queryable.
    fromStartEventsPerSec: Math.round(firstFromStart),
    // Where the time from start went: to /health (start-up), to the first events stored
    // (group join, first fetch and write), and the drain itself.
    startup: {
      toHealthMs: Math.round(healthyAt - startedAt),
      toFirstEventsStoredMs: Math.round(first.firstProgressAt - startedAt),
      drainMs: Math.round(first.drainedAt - first.firstProgressAt),
    },
    // A second backlog arriving on top: from its first produce request to drained.
    secondFromArrivalEventsPerSec: Math.round(secondFromArrival),
    // The events stored before the batch timed from its arrival (2 N with --restart-backlog second).
    secondFromArrivalStoredBeforeEvents: arrival.storedBefore,
    // The first backlog counted from the server's /health (start-up left out) to drained.
    firstFromHealthEventsPerSec: Math.round(firstFromHealth),
    // A backlog produced while the servers were down, timed as the first: from the restart
    // and from /health to drained; its ratio to the first's rate from /health.
    backlogAfterRestart: restart && {
      storedBeforeEvents: restart.storedBefore,
      fromStartEventsPerSec: Math.round(
        TOTAL / ((restart.drained.drainedAt - restart.restartedAt) / 1000),
      ),
      fromHealthEventsPerSec: Math.round(
        TOTAL / ((restart.drained.drainedAt - restart.restartHealthyAt) / 1000),
      ),
      toHealthMs: Math.round(restart.restartHealthyAt - restart.restartedAt),
      fromHealthToFirstStoredMs: Math.round(
        restart.drained.firstProgressAt - restart.restartHealthyAt,
      ),
      ratioToFirstFromHealth: Number(
        (
          TOTAL /
          ((restart.drained.drainedAt - restart.restartHealthyAt) / 1000) /
          firstFromHealth
        ).toFixed(3),
      ),
      produceEventsPerSec: Math.round(restart.produceRate),
      ...summary(restart.drained),
      cpuMicrosPerEvent: cpuMicros(restart.drained),
      brokerCpuSeconds: restart.drained.brokerCpuSeconds,
    },
    cpus: os.cpus().length,
    loadAverage1m: Number(os.loadavg()[0].toFixed(2)),
    producer: PRODUCER,
    produceEventsPerSec: Math.round(produceRate),
    sustainedEventsPerSec: Math.round(sustained),
    cpuMicrosPerEvent: Math.max(cpuMicros(first), cpuMicros(second)),
    firstBatch: {
      ...summary(first),
      cpuMicrosPerEvent: cpuMicros(first),
      // Of which the ClickHouse server's (0 with DuckDB, which runs inside docproc).
      storeServerCpuMicrosPerEvent: Number(((first.storeCpuSeconds / TOTAL) * 1e6).toFixed(1)),
      // The Kafka broker's while the batch drained (null when scripts/kafka.sh does not run it).
      brokerCpuSeconds: first.brokerCpuSeconds,
      fromHealthToFirstStoredMs: Math.round(first.firstProgressAt - healthyAt),
    },
    secondBatch: {
      ...summary(second),
      cpuMicrosPerEvent: cpuMicros(second),
      storeServerCpuMicrosPerEvent: Number(((second.storeCpuSeconds / TOTAL) * 1e6).toFixed(1)),
      produceEventsPerSec: Math.round(secondProduceRate),
      // On the same cores as the server's drain: the producer's CPU and the broker's (which
      // takes the batch in while serving the server's fetches).
      producerCpuSeconds: Number(secondProducerCpuSeconds.toFixed(2)),
      brokerCpuSeconds: second.brokerCpuSeconds,
      fromArrivalToFirstStoredMs: Math.round(second.firstProgressAt - arrival.arrivedAt),
    },
    memoryGrowthRatio: Number((second.peakRss / first.peakRss).toFixed(3)),
    latency: {
      loadEventsPerSec: LATENCY_RATE,
      probes: probeLatencies.length,
      unseenProbes: pending.size,
      p50Ms: Math.round(percentile(probeLatencies, 50)),
      p99Ms: Math.round(percentile(probeLatencies, 99)),
      maxMs: Math.round(probeLatencies[probeLatencies.length - 1]),
    },
    peakRssMB: Math.round(Math.max(first.peakRss, peakRss) / 2 ** 20),
    memoryAfterDrain,
    floor,
    ratioToFloor: floor ? Number((sustained / floor.eventsPerSec).toFixed(3)) : null,
    targets: {
      eventsPerSec50k: sustained >= 50_000,
      fromStart50k: firstFromStart >= 50_000,
      p99Under2s: percentile(probeLatencies, 99) < 2_000,
      peakRssUnder512MB: Math.max(first.peakRss, peakRss) < 512 * 2 ** 20,
      // Each backlog timed as a user waits for it: the first from the server's start, the
      // second from its arrival.
      secondWithin10PercentOfFirst: secondFromArrival >= firstFromStart * 0.9,
      secondPeakWithin10PercentOfFirst: second.peakRss <= first.peakRss * 1.1,
    },
  };
  console.log(JSON.stringify(result, null, 2));
}

await main();
