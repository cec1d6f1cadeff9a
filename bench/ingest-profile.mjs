#!/usr/bin/env node
// In-process profile of the ingestion path, without Kafka (after `npm run build`):
//   node bench/ingest-profile.mjs          N=300000 events, B=5556 per call, P=3 concurrent callers,
//                                          DAYS=30 (the span of the events' times)
// Prints normalization cost, throughput, CPU per event and the time per event of each
// DuckDB statement kind (statements run through runAndReadAll are counted twice).
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
    try {
      return await orig.call(this, sql, ...rest);
    } finally {
      const k = String(sql).replace(/\s+/g, ' ').slice(0, 60);
      const e = stats.get(k) ?? { n: 0, ms: 0 };
      e.n++;
      e.ms += performance.now() - s;
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
const events = Array.from({ length: N }, (_, i) => ev(i));
let s = performance.now();
const policy = loadConfig({}).usage.normalizer;
for (const e of events.slice(0, 50000)) normalizeUsageEvent(e, new Date(now), policy);
console.log('normalize µs/event', (((performance.now() - s) * 1000) / 50000).toFixed(2));
const ingest = app.get(UsageIngestService);
const threadCpu0 = threadCpu();
const cpu0 = process.cpuUsage();
s = performance.now();
const P = Number(process.env.P ?? 3);
await Promise.all(
  Array.from({ length: P }, async (_, p) => {
    for (let i = p * B; i < N; i += B * P) await ingest.ingest(events.slice(i, i + B));
  }),
);
const wall = performance.now() - s;
const cpu = process.cpuUsage(cpu0);
console.log(
  `ingest ${N} in ${(wall / 1000).toFixed(1)} s: ${((N / wall) * 1000).toFixed(0)} ev/s wall, ${((cpu.user + cpu.system) / N).toFixed(1)} µs CPU/event, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
);
const threadCpu1 = threadCpu();
for (const [name, seconds] of threadCpu1) {
  const spent = seconds - (threadCpu0.get(name) ?? 0);
  if (spent > 0.05) console.log(`thread ${name}: ${((spent * 1e6) / N).toFixed(1)} CPU-µs/event`);
}
for (const [k, v] of [...stats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 20))
  console.log(((v.ms * 1000) / N).toFixed(1).padStart(7), 'µs/ev', String(v.n).padStart(5), k);
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
fs.rmSync(dir, { recursive: true, force: true });

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
