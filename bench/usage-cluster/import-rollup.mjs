// How fast the quarter-hour roll-up catches up with a backlog a bulk import left, against the
// import's own speed, in one process and the same window (after `npm run build`):
//   node bench/usage-cluster/import-rollup.mjs [--events 500000] [--days 60]
// Imports N events (the ingest bench's mix: 40 % async with two metadata keys, 5 orgs) through
// UsageImportService (as `usage import --allow-late` does) with the roll-up timers off, then
// times the roll-up's two statements over the backlog (read only), runs
// UsageStoreRepository.rollUp() until it has caught up, then one clustering pass.
// Reports wall time, events/s and CPU-µs per event of each phase (this process's CPU:
// DuckDB's threads included).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { eventJson } from '../usage-events.mjs';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '500000' },
    days: { type: 'string', default: '60' },
  },
});
const EVENTS = Number(values.events);
const DAYS = Number(values.days);
const dist = (file) => import(pathToFileURL(path.resolve('dist', 'src', file)).href);
await import('reflect-metadata');
const { loadConfig } = await dist('config/app-config.js');
const { createApp } = await dist('app.factory.js');
const { AccountsService } = await dist('accounts/accounts.service.js');
const { MetadataKeyService } = await dist('usage/metadata/metadata-key.service.js');
const { UsageImportService } = await dist('usage/import/usage-import.service.js');
const { UsageStoreRepository } = await dist('usage/ingestion/usage-store.repository.js');
const { DuckDbService } = await dist('database/duckdb.service.js');
const { quarterHourRowsSql, quarterHourMetadataRowsSql } = await dist(
  'usage/core/quarter-hour-rollups.js',
);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-import-rollup-'));
const app = await createApp(
  loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    USAGE_QUARTER_HOUR_ROLLUP_INTERVAL_SEC: '0',
    USAGE_ROLLUP_CLUSTER_INTERVAL_MIN: '0',
    USAGE_LATE_EVENT_WINDOW_DAYS: String(DAYS + 1),
  }),
);
await app.init();

/** Wall ms, CPU-µs per event and events/s of `work` over `events` events. */
async function phase(events, work) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await work();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return {
    ms: Math.round(ms),
    eventsPerSecond: Math.round(events / (ms / 1000)),
    cpuMicrosPerEvent: Number(((used.user + used.system) / events).toFixed(1)),
    result,
  };
}

try {
  const accounts = app.get(AccountsService);
  const user = await accounts.createUser('bench@example.com');
  const orgIds = [];
  for (let i = 0; i < 5; i++) {
    const org = await accounts.createOrg(`bench-${i}`);
    await accounts.addMember(org.orgId, user.userId);
    for (const key of ['team', 'batch']) await app.get(MetadataKeyService).enable(org.orgId, key);
    orgIds.push(org.orgId);
  }
  const now = Date.now();
  async function* lines() {
    for (let i = 0; i < EVENTS; i++) yield eventJson(i, orgIds, now, 'imp', DAYS);
  }
  const report = { events: EVENTS, days: DAYS, load: os.loadavg().map((l) => l.toFixed(1)) };
  report.import = await phase(EVENTS, () => app.get(UsageImportService).importLines(lines(), true));
  report.import.result = { accepted: report.import.result.accepted };
  const store = app.get(UsageStoreRepository);
  // The roll-up's two statements over the whole backlog, read only: the metadata one parses
  // every async event's metadata JSON again (what handing the write's codes would save).
  const db = app.get(DuckDbService);
  report.quarterHourRowsOnly = await phase(EVENTS, () =>
    db.all(`SELECT count(*) AS n FROM (${quarterHourRowsSql('usage_events', 'true')})`),
  );
  report.quarterHourMetadataRowsOnly = await phase(EVENTS, () =>
    db.all(`SELECT count(*) AS n FROM (${quarterHourMetadataRowsSql('usage_events', 'true')})`),
  );
  report.rollUp = await phase(EVENTS, () => store.rollUp());
  report.cluster = await phase(EVENTS, () => store.clusterNarrowRollups());
  report.rollUpToImport = Number((report.rollUp.ms / report.import.ms).toFixed(3));
  report.loadEnd = os.loadavg().map((l) => l.toFixed(1));
  console.log(JSON.stringify(report, (_, v) => (typeof v === 'bigint' ? Number(v) : v), 2));
} finally {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
