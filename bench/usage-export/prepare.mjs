// Builds (or reuses) the benchmark's data set: accounts, DuckDB events and rollups, the
// clustering pass the server runs, and the same data in PostgreSQL.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { GROUPABLE_KEYS, ORG_COUNT, exportCsv, generateDuckDb, orgId } from './dataset.mjs';
import { onFreePorts } from '../../test/support/free-port.mjs';
import { ensureNarrowRollups, loadPostgres, prewarm, startCluster } from './postgres.mjs';
import {
  EVENTS,
  FRESH,
  SEED,
  caseDir,
  csvDir,
  dataDir,
  importDist,
  log,
  markerFile,
  pgDir,
} from './options.mjs';

/** Writes the data set's description next to the data, for the next run to reuse. */
function persist(dataset) {
  const persisted = { ...dataset };
  delete persisted.reused;
  fs.writeFileSync(markerFile, JSON.stringify(persisted, null, 2));
}

async function openApp(databaseFile) {
  const { loadConfig } = await importDist('src/config/app-config.js');
  const { createApp } = await importDist('src/app.factory.js');
  const app = await createApp(
    loadConfig({ DATA_DIR: dataDir, DATABASE_FILE: databaseFile, LOG_LEVEL: 'warn' }),
  );
  await app.init();
  return app;
}

/** Migrations, orgs, a member with an account key and enabled metadata keys, through the services. */
async function seedAccounts(databaseFile) {
  const { AccountsService } = await importDist('src/accounts/accounts.service.js');
  const { ApiKeyService } = await importDist('src/accounts/keys/api-key.service.js');
  const { MetadataKeyService } = await importDist('src/usage/metadata/metadata-key.service.js');
  const app = await openApp(databaseFile);
  try {
    const accounts = app.get(AccountsService);
    const metadataKeys = app.get(MetadataKeyService);
    const user = await accounts.createUser('bench@example.com');
    for (let i = 0; i < ORG_COUNT; i++) {
      await accounts.ensureOrg(orgId(i), `Bench org ${i}`);
      await accounts.addMember(orgId(i), user.userId);
      for (const key of GROUPABLE_KEYS) await metadataKeys.enable(orgId(i), key);
    }
    const key = await app.get(ApiKeyService).createAccountKey(user.userId, { name: 'bench' });
    return key.secret;
  } finally {
    await app.close();
  }
}

export async function prepareDataset() {
  if (!FRESH && fs.existsSync(markerFile)) {
    log(`reusing ${caseDir} (pass --fresh to rebuild)`);
    return { ...JSON.parse(fs.readFileSync(markerFile, 'utf8')), reused: true };
  }
  fs.rmSync(caseDir, { recursive: true, force: true });
  fs.mkdirSync(csvDir, { recursive: true, mode: 0o755 });
  fs.chmodSync(caseDir, 0o755);
  const databaseFile = path.join(dataDir, 'docproc.duckdb');
  const endDay = new Date().toISOString().slice(0, 10);
  log(`seeding accounts and metadata keys in ${dataDir}`);
  const accountKey = await seedAccounts(databaseFile);
  log(`generating ${EVENTS} events and the rollups in DuckDB`);
  const started = performance.now();
  const duck = await generateDuckDb(databaseFile, { events: EVENTS, seed: SEED, endDay });
  duck.timings.duckdbTotal = Math.round(performance.now() - started);
  const dataset = {
    events: EVENTS,
    seed: SEED,
    endDay,
    databaseFile,
    accountKey,
    sizes: duck.sizes,
    orgSizes: duck.orgSizes,
    timings: duck.timings,
    duckdbFileBytes: fs.statSync(databaseFile).size,
    builtAt: new Date().toISOString(),
    pgLoaded: false,
  };
  persist(dataset);
  return { ...dataset, reused: false };
}

/**
 * Opens the store once through the app (pending migrations apply: on a cache built before
 * 021 or 116 that is their backfill), then runs the periodic clustering pass of the narrow rollups
 * so the store is in the state the server keeps it in; both are timed.
 */
export async function clusterStore(dataset) {
  if (dataset.clustered) return;
  const { UsageStoreRepository } = await importDist(
    'src/usage/ingestion/usage-store.repository.js',
  );
  const { DuckDbService } = await importDist('src/database/duckdb.service.js');
  let started = performance.now();
  const app = await openApp(dataset.databaseFile);
  try {
    dataset.timings.openAndMigrate = Math.round(performance.now() - started);
    log('clustering the narrow rollups');
    started = performance.now();
    await app.get(UsageStoreRepository).clusterNarrowRollups();
    dataset.timings.clusterNarrowRollups = Math.round(performance.now() - started);
    const db = app.get(DuckDbService);
    for (const table of [
      'usage_daily_dimension',
      'usage_daily_metadata_value',
      'usage_quarter_hour_dimension',
      'usage_quarter_hour_metadata_value',
    ]) {
      const [row] = await db.all(`SELECT count(*) AS n FROM ${table}`);
      dataset.sizes[table] = Number(row.n);
    }
    await db.run('CHECKPOINT');
  } finally {
    await app.close();
  }
  dataset.clustered = true;
  dataset.duckdbFileBytes = fs.statSync(dataset.databaseFile).size;
  persist(dataset);
}

/** Starts the PostgreSQL cluster, loading it (COPY) and its narrow rollups the first time. */
export async function preparePostgres(dataset) {
  const cluster = await onFreePorts(1, async ([port]) => startCluster(pgDir, port));
  if (!dataset.pgLoaded) {
    log('exporting CSV from DuckDB');
    let started = performance.now();
    const files = await exportCsv(dataset.databaseFile, csvDir);
    dataset.timings.csvExport = Math.round(performance.now() - started);
    log('loading PostgreSQL with COPY');
    started = performance.now();
    Object.assign(dataset.timings, await loadPostgres(cluster.connection, files));
    dataset.timings.pgTotal = Math.round(performance.now() - started);
    fs.rmSync(csvDir, { recursive: true, force: true });
    dataset.pgLoaded = true;
    persist(dataset);
  }
  const narrowMs = await ensureNarrowRollups(cluster.connection);
  if (narrowMs !== null) {
    dataset.timings.pgNarrowRollups = narrowMs;
    persist(dataset);
  }
  log('prewarming PostgreSQL buffers');
  await prewarm(cluster.connection);
  return cluster;
}
