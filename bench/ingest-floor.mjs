#!/usr/bin/env node
// Ceilings of the ingestion stack on this machine, each part measured alone
// (`npm run bench:ingest-floor`, after `npm run build`):
//   node bench/ingest-floor.mjs [--events 1000000] [--batch 20000] [--partitions 3]
//
// 1. kafkajs: a fresh topic holds N of the benchmark's usage events; one consumer per mode
//    drains it, doing (a) nothing with the messages, (b) JSON.parse of each value, (c) the
//    service's normalizer. Nothing is written anywhere.
// 2. DuckDB: the same number of rows, staged once inside DuckDB (no JavaScript per row),
//    times spread over 30 days as in bench:ingest, is written into the real `usage_events`
//    table (migrations 020 + 022) one transaction per batch by the service's dedupe write:
//    an anti-join against the stored (day, event_key) of the batch's days (`day BETWEEN`
//    table filter) and the insert of the new rows (UsageStoreRepository.applyStaged); and,
//    for comparison, the same insert without the dedupe. No rollups, no metadata tracking.
// The broker's CPU is read from /proc when `scripts/kafka.sh` started it (it shares the
// machine). The sum of the cheapest consumer-side cost and the deduplicating insert is a
// lower bound of the CPU an ingested event needs; the machine's cores divide it into a ceiling.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { drainTimed } from './kafka-drain.mjs';
import { benchArgs, localBrokers } from './local-kafka.mjs';
import { eventJson } from './usage-events.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = benchArgs();
const TOTAL = Number(args.events ?? 1_000_000);
const BATCH = Number(args.batch ?? 20_000);
const PARTITIONS = Number(args.partitions ?? 3);
const ORG_IDS = ['org_floor_0', 'org_floor_1', 'org_floor_2', 'org_floor_3', 'org_floor_4'];

const dist = (p) => path.join(ROOT, 'dist', 'src', p);
const { Kafka, logLevel, Partitioners } = await import('kafkajs');
const { DuckDBInstance } = await import('@duckdb/node-api');
const { normalizeUsageEvent } = await import(dist('usage/ingestion/usage-event.normalizer.js'));
const { loadConfig } = await import(dist('config/app-config.js'));
const { STATS_DEPENDENT_OPTIMIZERS } = await import(dist('database/duckdb.service.js'));

const BROKERS = localBrokers();
// The service's own settings with the default environment: fetch sizes, checkpoint threshold.
const CONFIG = loadConfig({ KAFKA_BROKERS: BROKERS });

const log = (...parts) => console.error('[bench]', ...parts);

/** The broker's pid when `scripts/kafka.sh` started it (KAFKA_PORT, DOCPROC_CACHE as there). */
function brokerPid() {
  const cache = process.env.DOCPROC_CACHE ?? path.join(os.homedir(), '.cache/docproc');
  const version = process.env.KAFKA_VERSION ?? '3.9.1';
  const port = process.env.KAFKA_PORT ?? '19092';
  const file = path.join(cache, `kafka-${version}`, 'instances', port, 'kafka.pid');
  return fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8').trim()) : null;
}

/** CPU seconds a process has used (utime + stime from /proc; Linux clock ticks of 10 ms). */
function cpuSecondsOf(pid) {
  if (pid === null || !fs.existsSync(`/proc/${pid}/stat`)) return null;
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Events/s and CPU µs per event: this process's, and the broker's when sampled. */
function perEvent(events, seconds, cpuMicros, [broker0, broker1] = [null, null]) {
  return {
    eventsPerSecond: Math.round(events / seconds),
    cpuMicrosPerEvent: Number((cpuMicros / events).toFixed(1)),
    ...(broker0 !== null && broker1 !== null
      ? { brokerCpuMicrosPerEvent: Number((((broker1 - broker0) * 1e6) / events).toFixed(1)) }
      : {}),
  };
}

/** Runs `work` and measures it over `events` (see perEvent). */
async function measure(events, work, broker = null) {
  const cpu0 = process.cpuUsage();
  const broker0 = cpuSecondsOf(broker);
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return perEvent(events, seconds, cpu.user + cpu.system, [broker0, cpuSecondsOf(broker)]);
}

const CONSUMER_MODES = {
  nothing: () => undefined,
  'JSON.parse': (value) => JSON.parse(value.toString('utf8')),
  normalizer: (value, now) => normalizeUsageEvent(value, now, CONFIG.usage.normalizer),
};

async function kafkaCeilings() {
  const kafka = new Kafka({
    clientId: 'bench-floor',
    brokers: BROKERS.split(','),
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  const topic = `bench-floor-${Date.now()}`;
  await admin.createTopics({
    topics: [{ topic, numPartitions: PARTITIONS }],
    waitForLeaders: true,
  });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  const now = Date.now();
  for (let from = 0; from < TOTAL; from += 2_000) {
    const messages = [];
    for (let i = from; i < Math.min(TOTAL, from + 2_000); i++) {
      messages.push({ key: ORG_IDS[i % ORG_IDS.length], value: eventJson(i, ORG_IDS, now) });
    }
    await producer.send({ topic, messages, acks: 1 });
  }
  await producer.disconnect();
  log(`produced ${TOTAL} events to ${topic}`);

  const results = {};
  const broker = brokerPid();
  for (const [mode, handle] of Object.entries(CONSUMER_MODES)) {
    const { events, seconds, cpuMicros, samples } = await drainTimed(kafka, {
      topic,
      groupId: `${topic}-${mode}`,
      total: TOTAL,
      partitions: PARTITIONS,
      settings: CONFIG.kafka.consumer,
      handle,
      sample: () => cpuSecondsOf(broker),
    });
    results[mode] = perEvent(events, seconds, cpuMicros, samples);
    log(`kafkajs + ${mode}:`, JSON.stringify(results[mode]));
  }
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.disconnect();
  return results;
}

const DEDUPE_VARIANTS = {
  // The write of UsageStoreRepository.applyStaged: anti-join on the touched days, then insert.
  'dedupe write (anti-join on the touched days)': (table) =>
    `INSERT INTO ${table}
     SELECT s.* FROM (
       SELECT md5_number(source || chr(0) || event_id) AS event_key, source, event_id, org_id,
              CAST(event_time AS TIMESTAMPTZ), CAST(day AS DATE) AS day, product, feature,
              api_key_id, file_type, pages, CAST(credits AS DECIMAL(18, 6)), job_id, is_async,
              metadata_json, batch, now()
       FROM staged WHERE batch = $1
     ) s
     ANTI JOIN (
       SELECT day, event_key FROM ${table}
       WHERE day BETWEEN CAST($2 AS DATE) AND CAST($3 AS DATE)
     ) e ON e.day = s.day AND e.event_key = s.event_key`,
  'insert without dedupe': (table) =>
    `INSERT INTO ${table}
     SELECT md5_number(source || chr(0) || event_id), source, event_id, org_id,
            CAST(event_time AS TIMESTAMPTZ), CAST(day AS DATE), product, feature, api_key_id,
            file_type, pages, CAST(credits AS DECIMAL(18, 6)), job_id, is_async, metadata_json,
            batch, now()
     FROM staged WHERE batch = $1 AND $2::VARCHAR IS NOT NULL AND $3::VARCHAR IS NOT NULL`,
};

async function duckdbCeilings() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-ingest-floor-'));
  const results = {};
  try {
    for (const [variant, insertSql] of Object.entries(DEDUPE_VARIANTS)) {
      const file = path.join(dir, `${Object.keys(results).length}.duckdb`);
      // The settings DuckDbService.open gives the instance.
      const instance = await DuckDBInstance.create(file, {
        checkpoint_threshold: CONFIG.duckdbCheckpointThreshold,
        disabled_optimizers: STATS_DEPENDENT_OPTIMIZERS,
      });
      const connection = await instance.connect();
      for (const migration of [
        '020_usage_store.sql',
        '022_usage_events_by_day.sql',
        '023_usage_events_without_metadata_map.sql',
      ]) {
        await connection.run(fs.readFileSync(path.join(ROOT, 'sql', migration), 'utf8'));
      }
      // Times as bench/usage-events.mjs spreads them: every batch touches all 30 days.
      await connection.run(
        `CREATE TEMP TABLE staged AS
         SELECT i // ${BATCH} AS batch, 'docproc/processing' AS source, 'b_' || i AS event_id,
                'org_floor_' || (i % 5) AS org_id,
                strftime(t, '%Y-%m-%dT%H:%M:%S.000Z') AS event_time, strftime(t, '%Y-%m-%d') AS day,
                'parse' AS product, 'parse' AS feature, 'pk_' || (i % 4) AS api_key_id,
                'pdf' AS file_type, (1 + i % 9)::INTEGER AS pages, (1 + i % 9)::VARCHAR || '.000000' AS credits,
                CASE WHEN i % 5 < 2 THEN 'job_' || i END AS job_id, i % 5 < 2 AS is_async,
                CASE WHEN i % 5 < 2 THEN '{"team":"t' || (i % 5) || '","batch":' || (i % 20) || '}' END AS metadata_json
         FROM (SELECT i, TIMESTAMP '2026-11-01' + to_seconds((i * 7919) % 2592000) AS t
               FROM range(${TOTAL}) r(i))`,
      );
      // The days of each batch, known before the write as the service knows them from JS.
      const days = (
        await connection.runAndReadAll(
          'SELECT batch, min(day) AS lo, max(day) AS hi FROM staged GROUP BY batch ORDER BY batch',
        )
      ).getRowObjectsJS();
      results[variant] = await measure(TOTAL, async () => {
        for (const { batch, lo, hi } of days) {
          await connection.run('BEGIN TRANSACTION');
          await connection.run(insertSql('usage_events'), [batch, lo, hi]);
          await connection.run('COMMIT');
        }
      });
      log(`DuckDB ${variant}:`, JSON.stringify(results[variant]));
      connection.closeSync();
      instance.closeSync();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

const cores = os.availableParallelism();
const kafka = await kafkaCeilings();
const duckdb = await duckdbCeilings();
const consumerFloor =
  kafka['JSON.parse'].cpuMicrosPerEvent + (kafka['JSON.parse'].brokerCpuMicrosPerEvent ?? 0);
const insertFloor = duckdb['dedupe write (anti-join on the touched days)'].cpuMicrosPerEvent;
const report = {
  events: TOTAL,
  batch: BATCH,
  cores,
  cpu: os.cpus()[0]?.model,
  node: process.version,
  kafkajs: kafka,
  duckdb,
  floor: {
    cpuMicrosPerEvent: Number((consumerFloor + insertFloor).toFixed(1)),
    note: 'kafkajs + JSON.parse (+ the broker serving the fetches, when measured), plus the dedupe write (anti-join + insert); no validation, staging or rollups',
    ceilingEventsPerSecond: Math.round((cores * 1e6) / (consumerFloor + insertFloor)),
  },
};
console.log(JSON.stringify(report, null, 2));
