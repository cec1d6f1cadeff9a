import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DuckDbService } from '../../src/database/duckdb.service.js';
import { UsageIngestService } from '../../src/usage/ingestion/usage-ingest.service.js';
import { UsageStoreRepository } from '../../src/usage/ingestion/usage-store.repository.js';
import { MetadataKeyService } from '../../src/usage/metadata/metadata-key.service.js';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import { seedAccount } from '../support/accounts.js';
import { buildDist } from '../support/child-app.js';
import { startTestApp } from '../support/test-app.js';
import { usageEvent } from '../support/usage-events.js';
import { seeded } from '../support/usage-event-mix.js';

// The clustering pass rewrites the clustered rollups while the process may die: a SIGKILL
// at any point of a pass must leave every table's totals as they were (nothing lost, nothing
// counted twice) and no key of a keyed table twice.

const KILLS = 8;
const PRODUCTS = ['classify', 'parse', 'extract'] as const;
const CLUSTERED = [
  'usage_daily_dimension',
  'usage_daily_metadata_value',
  'usage_quarter_hour',
  'usage_quarter_hour_metadata',
];
const KEYS: Record<string, string> = {
  usage_daily_dimension: 'org_id, dimension, day, value',
  usage_daily_metadata_value: 'org_id, meta_key, day, meta_value',
};

let dataDir: string;
let buildDir: string;

function events(orgId: string, count: number, salt: number): UsageCloudEvent[] {
  return Array.from({ length: count }, (_, i) =>
    usageEvent(
      {
        orgId,
        product: PRODUCTS[(i + salt) % 3],
        feature: `f${i % 3}`,
        apiKeyId: `pk_${(i * 7 + salt) % 9}`,
        fileType: i % 3 === 0 ? 'png' : 'pdf',
        credits: `${(i % 5) + 1}.${salt}25`,
        async: i % 2 === 0,
        ...(i % 2 === 0 ? { metadata: { team: `t${(i + salt) % 11}` } } : {}),
      },
      { daysBack: (i * 3 + salt) % 30 },
    ),
  );
}

/** Every clustered table's totals and its keys seen more than once, on the store in `dataDir`. */
async function storeState(): Promise<Record<string, string>> {
  const t = await startTestApp({ DATA_DIR: dataDir });
  try {
    const db = t.app.get(DuckDbService);
    const state: Record<string, string> = {};
    for (const table of CLUSTERED) {
      const [row] = await db.all<{ credits: string; requests: string }>(
        `SELECT CAST(sum(credits) AS VARCHAR) AS credits,
                CAST(sum(request_count) AS VARCHAR) AS requests FROM ${table}`,
      );
      state[table] = `${row.credits} credits, ${row.requests} requests`;
      if (KEYS[table] !== undefined) {
        const [repeated] = await db.all<{ n: bigint }>(
          `SELECT count(*) AS n FROM (SELECT ${KEYS[table]} FROM ${table}
                                      GROUP BY ALL HAVING count(*) > 1)`,
        );
        state[`${table} repeated keys`] = String(repeated.n);
      }
    }
    return state;
  } finally {
    await t.close();
  }
}

/** A process that opens the store and runs clustering passes back to back, saying when each starts and ends. */
function passLoop() {
  const url = (file: string) => pathToFileURL(path.join(buildDir, 'src', file)).href;
  const script = `
    const { loadConfig } = await import(${JSON.stringify(url('config/app-config.js'))});
    const { DuckDbService } = await import(${JSON.stringify(url('database/duckdb.service.js'))});
    const { UsageStoreRepository } = await import(
      ${JSON.stringify(url('usage/ingestion/usage-store.repository.js'))});
    const db = new DuckDbService(loadConfig(process.env));
    await db.open();
    const store = new UsageStoreRepository(db);
    for (;;) {
      process.stdout.write('pass\\n');
      await store.clusterNarrowRollups();
      process.stdout.write('done\\n');
    }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    child,
    exited,
    lines: () => out.split('\n').filter(Boolean),
    stderr: () => err,
  };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-cluster-crash-'));
  const built = buildDist('usage-cluster-crash');
  const t = await startTestApp({ DATA_DIR: dataDir });
  try {
    const acme = await seedAccount(t.app, 'Acme');
    const other = await seedAccount(t.app, 'Other');
    for (const org of [acme, other]) {
      await t.app.get(MetadataKeyService).enable(org.orgId, 'team');
    }
    const ingest = t.app.get(UsageIngestService);
    for (let round = 0; round < 4; round++) {
      const outcome = await ingest.ingest([
        ...events(acme.orgId, 1500, round + 1),
        ...events(other.orgId, 700, round + 5),
      ]);
      expect(outcome.rejected).toEqual([]);
    }
    await t.app.get(UsageStoreRepository).rollUp();
  } finally {
    await t.close();
  }
  buildDir = await built;
}, 600_000);

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the clustering pass under SIGKILL', () => {
  it(`loses and double-counts nothing when the process is killed ${KILLS} times during passes`, async () => {
    const before = await storeState();
    expect(before.usage_quarter_hour_metadata).not.toMatch(/^null/);
    const random = seeded(33_406);
    let killedMidPass = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      const loop = passLoop();
      // Wait for a pass to start (the first after opening, or a later one), then kill within it.
      const passesToSee = 1 + Math.floor(random() * 2);
      const deadline = Date.now() + 180_000;
      while (loop.lines().filter((l) => l === 'pass').length < passesToSee) {
        if (Date.now() > deadline) throw new Error(`no pass started: ${loop.stderr()}`);
        if (loop.child.exitCode !== null) throw new Error(`pass loop exited: ${loop.stderr()}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 40)));
      const lines = loop.lines();
      if (lines[lines.length - 1] === 'pass') killedMidPass++;
      loop.child.kill('SIGKILL');
      await loop.exited;
    }
    // A kill that landed between passes proves nothing: most must land inside one.
    expect(killedMidPass).toBeGreaterThanOrEqual(KILLS / 2);
    expect(await storeState()).toEqual(before);
  }, 900_000);
});
