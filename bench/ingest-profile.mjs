#!/usr/bin/env node
// In-process profile of the ingestion path, without Kafka (after `npm run build`):
//   node bench/ingest-profile.mjs          N=300000 events, B=5556 per call, P=3 concurrent callers,
//                                          DAYS=30 (the span of the events' times)
//   PHASES=2: N more events on top of the first N, each phase's figures apart (what grows
//     with the stored table); LONG_MS=500: each statement slower than that, as it ends;
//   KEEP_DIR=1: keeps the DuckDB file for a look afterwards; EXTRA='{"SETTING":"value"}'.
//   Run it as scripts/server.sh runs the server to compare with bench:ingest (the launcher's
//   MALLOC_ARENA_MAX=2 DUCKDB_JE_MALLOC_CONF=muzzy_decay_ms:0 node --max-semi-space-size=4).
// Prints normalization cost, throughput, CPU per event (user, system, page faults, bytes
// read and written) and, per DuckDB statement kind, its wall time per event and the
// process's CPU meanwhile (statements run through runAndReadAll are counted twice).
import 'reflect-metadata';
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { eventJson } from './usage-events.mjs';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => path.join(ROOT, 'dist', 'src', p);
const { DuckDBConnection } = await import('@duckdb/node-api');
const stats = new Map();
const wrap = (proto, name) => {
  const orig = proto[name];
  proto[name] = async function (sql, ...rest) {
    const s = performance.now();
    const c0 = process.cpuUsage();
    try {
      return await orig.call(this, sql, ...rest);
    } finally {
      const k = String(sql).replace(/\s+/g, ' ').slice(0, 70);
      const e = stats.get(k) ?? { n: 0, ms: 0, max: 0, cpu: 0 };
      const ms = performance.now() - s;
      const c1 = process.cpuUsage(c0);
      // The process's CPU meanwhile: the statement's and whatever ran beside it.
      e.cpu += (c1.user + c1.system) / 1000;
      e.n++;
      e.ms += ms;
      e.max = Math.max(e.max, ms);
      // LONG_MS=<ms>: each statement that took longer, when it ended (s since start).
      if (process.env.LONG_MS && ms > Number(process.env.LONG_MS))
        console.log(`  ${(performance.now() / 1000).toFixed(1)} s ${ms.toFixed(0)} ms ${k}`);
      stats.set(k, e);
    }
  };
};
wrap(DuckDBConnection.prototype, 'run');
wrap(DuckDBConnection.prototype, 'runAndReadAll');
const { loadConfig } = await import(dist('config/app-config.js'));
const { createApp } = await import(dist('app.factory.js'));
const { AccountsService } = await import(dist('accounts/accounts.service.js'));
const { UsageIngestService } = await import(dist('usage/ingestion/usage-ingest.service.js'));
const { normalizeUsageEvent } = await import(dist('usage/ingestion/usage-event.normalizer.js'));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-ingest-profile-'));
const app = await createApp(
  loadConfig({
    DATA_DIR: dir,
    LOG_LEVEL: 'error',
    ...(process.env.EXTRA ? JSON.parse(process.env.EXTRA) : {}),
  }),
);
await app.init();
const accounts = app.get(AccountsService);
const orgIds = [];
for (let i = 0; i < 5; i++) orgIds.push((await accounts.createOrg(`o${i}`)).orgId);
const now = Date.now();
const DAYS = Number(process.env.DAYS ?? 30);
const ev = (i) => Buffer.from(eventJson(i, orgIds, now, 'b', DAYS));
const N = Number(process.env.N ?? 300000),
  B = Number(process.env.B ?? 5556);
const sample = Array.from({ length: 50000 }, (_, i) => ev(i));
let s = performance.now();
const policy = loadConfig({}).usage.normalizer;
for (const e of sample) normalizeUsageEvent(e, new Date(now), policy);
console.log('normalize µs/event', (((performance.now() - s) * 1000) / 50000).toFixed(2));
const ingest = app.get(UsageIngestService);
const db = app.get((await import(dist('database/duckdb.service.js'))).DuckDbService);
// PHASES=2 ingests N more events on top of the first N (times over the same DAYS): each
// phase's figures apart, so what grows with the stored table shows as the second's excess.
const PHASES = Number(process.env.PHASES ?? 1);
const P = Number(process.env.P ?? 3);
for (let phase = 0; phase < PHASES; phase++) {
  const events = Array.from({ length: N }, (_, i) => ev(phase * N + i));
  stats.clear();
  const threadCpu0 = threadCpu();
  const io0 = ioBytes();
  const faults0 = minorFaults();
  const cpu0 = process.cpuUsage();
  s = performance.now();
  await Promise.all(
    Array.from({ length: P }, async (_, p) => {
      for (let i = p * B; i < N; i += B * P) await ingest.ingest(events.slice(i, i + B));
    }),
  );
  const wall = performance.now() - s;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `phase ${phase + 1}: ingest ${N} in ${(wall / 1000).toFixed(1)} s: ${((N / wall) * 1000).toFixed(0)} ev/s wall, ${((cpu.user + cpu.system) / N).toFixed(1)} µs CPU/event, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
  );
  const io1 = ioBytes();
  console.log(
    `user ${(cpu.user / N).toFixed(1)} µs/event, system ${(cpu.system / N).toFixed(1)} µs/event, ${((minorFaults() - faults0) / 1e3).toFixed(0)} k minor page faults`,
  );
  // The events the quarter-hour roll-up has yet to add: work a next batch inherits.
  const [{ unrolled }] = await db.all(
    'SELECT count(*) AS unrolled FROM usage_events WHERE batch_id > (SELECT max(rolled_batch_id) FROM usage_quarter_hour_watermark)',
  );
  console.log(`events not rolled up yet at the phase's end: ${unrolled}`);
  console.log(
    `read ${((io1.rchar - io0.rchar) / 1e6).toFixed(0)} MB, written ${((io1.wchar - io0.wchar) / 1e6).toFixed(0)} MB (all reads and writes, page cache included)`,
  );
  const threadCpu1 = threadCpu();
  for (const [name, seconds] of threadCpu1) {
    const spent = seconds - (threadCpu0.get(name) ?? 0);
    if (spent > 0.05) console.log(`thread ${name}: ${((spent * 1e6) / N).toFixed(1)} CPU-µs/event`);
  }
  for (const [k, v] of [...stats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 20))
    console.log(
      ((v.ms * 1000) / N).toFixed(1).padStart(7),
      'µs/ev',
      String(v.n).padStart(5),
      ((v.cpu * 1000) / N).toFixed(1).padStart(6),
      'CPU-µs/ev',
      v.max.toFixed(0).padStart(6),
      'ms max',
      k,
    );
}
console.log(
  JSON.stringify(
    Object.fromEntries(
      Object.entries(process.memoryUsage()).map(([k, v]) => [k, Math.round(v / 1e6)]),
    ),
  ),
);
const dm = await app
  .get((await import(dist('database/duckdb.service.js'))).DuckDbService)
  .all(
    'SELECT tag, memory_usage_bytes//1000000 AS mb, temporary_storage_bytes//1000000 AS tmp FROM duckdb_memory() WHERE memory_usage_bytes > 1000000',
  );
console.log(JSON.stringify(dm, (k, v) => (typeof v === 'bigint' ? Number(v) : v)));
await app.close();
if (process.env.KEEP_DIR) console.log(`kept ${dir}`);
else fs.rmSync(dir, { recursive: true, force: true });

/** Minor page faults of the whole process (pages the allocators handed back and touched again). */
function minorFaults() {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
}

/** Bytes the process read and wrote through system calls (/proc/self/io). */
function ioBytes() {
  const text = fs.readFileSync('/proc/self/io', 'utf8');
  const field = (name) => Number(new RegExp(`${name}: (\\d+)`).exec(text)[1]);
  return { rchar: field('rchar'), wchar: field('wchar') };
}

/** CPU seconds per thread name (several threads of one name are summed), from /proc. */
function threadCpu() {
  const byName = new Map();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const label = tid === String(process.pid) ? 'main' : `${name}/${tid}`;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / 100;
      byName.set(label, (byName.get(label) ?? 0) + seconds);
    } catch {
      // the thread ended meanwhile
    }
  }
  return byName;
}
