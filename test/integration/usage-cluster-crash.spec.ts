import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DuckDbService } from '../../src/database/duckdb.service.js';
import { UsageStoreRepository } from '../../src/usage/ingestion/usage-store.repository.js';
import { UNSORTED_RUN } from '../../src/usage/ingestion/rollup-clustering.js';
import { MetadataKeyService } from '../../src/usage/metadata/metadata-key.service.js';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import { seedAccount } from '../support/accounts.js';
import { buildDist } from '../support/child-app.js';
import { startTestApp } from '../support/test-app.js';
import { usageEvent } from '../support/usage-events.js';
import { seeded } from '../support/usage-event-mix.js';
import { ingestAll } from '../support/usage-ingest.js';

// The clustering pass rewrites the clustered rollups while the process may die: a SIGKILL
// at any point of a pass must leave every table's totals as they were (nothing lost, nothing
// counted twice), no key of a keyed table twice and every sorted row in a recorded run.

const KILLS = 8;
const PRODUCTS = ['classify', 'parse', 'extract'] as const;
const CLUSTERED = [
  'usage_daily_dimension',
  'usage_daily_metadata_value',
  'usage_quarter_hour',
  'usage_quarter_hour_metadata',
  'usage_quarter_hour_dimension',
  'usage_quarter_hour_metadata_value',
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
      if (KEYS[table] === undefined) {
        // Every sorted row belongs to a run the pass recorded in the same transaction.
        const [stray] = await db.all<{ n: bigint }>(
          `SELECT count(*) AS n FROM ${table}
           WHERE sorted_run < ${UNSORTED_RUN}
             AND sorted_run NOT IN (SELECT run FROM usage_rollup_runs WHERE table_name = $1)`,
          [table],
        );
        state[`${table} rows outside a recorded run`] = String(stray.n);
      } else {
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

/**
 * A process that opens the store and runs clustering passes back to back, saying when each
 * starts and ends (with the statements it ran). With `killAtStatement` it SIGKILLs itself
 * just before that statement of its passes; with `killInStatement` it SIGKILLs itself
 * `killDelayMs` after that statement started, if a pass is still running then (inside that
 * statement or a later one; otherwise before the first statement of the next pass); with
 * `passes` it stops after that many.
 */
function passLoop({ killAtStatement = 0, killInStatement = 0, killDelayMs = 0, passes = 0 } = {}) {
  const url = (file: string) => pathToFileURL(path.join(buildDir, 'src', file)).href;
  const script = `
    const { loadConfig } = await import(${JSON.stringify(url('config/app-config.js'))});
    const { DuckDbService } = await import(${JSON.stringify(url('database/duckdb.service.js'))});
    const { QUARTER_HOUR_COLUMNS } = await import(
      ${JSON.stringify(url('usage/core/quarter-hour-rollups.js'))});
    const { UsageStoreRepository } = await import(
      ${JSON.stringify(url('usage/ingestion/usage-store.repository.js'))});
    const db = new DuckDbService(loadConfig(process.env));
    await db.open();
    // Every statement a pass runs goes through the writer connection \`exclusive\` lends.
    let statements = 0;
    let counting = false;
    let killPending = false;
    const exclusive = db.exclusive.bind(db);
    db.exclusive = (work) => exclusive((connection) => work(new Proxy(connection, {
      get(target, name) {
        const value = target[name];
        if (typeof value !== 'function') return value;
        if (!counting || (name !== 'run' && name !== 'runAndReadAll')) return value.bind(target);
        return (...args) => {
          if (++statements === ${killAtStatement} || killPending) {
            process.kill(process.pid, 'SIGKILL');
          }
          const running = value.apply(target, args);
          if (statements === ${killInStatement}) {
            // DuckDB runs the statement off the event loop: the timer fires while it runs
            // (or a later one of the pass). Between passes it kills before the next
            // statement of a pass instead.
            setTimeout(() => {
              if (counting) process.kill(process.pid, 'SIGKILL');
              killPending = true;
            }, ${killDelayMs});
          }
          return running;
        };
      },
    })));
    const store = new UsageStoreRepository(db);
    // Before each pass, work for it that leaves every total as it is: some sorted rows made
    // unsorted again, pairs of rows that cancel out, and the keyed tables due for a rewrite.
    // Rows are picked by rowid, not by quarter: the events lie at the time of day the spec
    // runs, so their buckets may all start on one quarter of the hour, and a pass without
    // work would run fewer statements than the one counted.
    for (let round = 1; ; round++) {
      for (const [table, columns] of Object.entries(QUARTER_HOUR_COLUMNS)) {
        await db.run(\`UPDATE \${table} SET sorted_run = ${UNSORTED_RUN}
                       WHERE (rowid + \${round}) % 4 = 0\`);
        // Taken from sorted rows only and at most 300, so that passes killed one after
        // the other do not multiply them.
        await db.run(\`INSERT INTO \${table} (\${columns})
          SELECT \${columns.replace('credits, request_count', 's * credits, s * request_count')}
          FROM (SELECT * FROM \${table}
                WHERE sorted_run < ${UNSORTED_RUN} AND (rowid + \${round}) % 4 = 1 LIMIT 300) r,
               (VALUES (1), (-1)) v(s)\`);
      }
      await db.run('DELETE FROM usage_rollup_runs WHERE table_name LIKE \\'usage_daily%\\'');
      statements = 0;
      process.stdout.write('pass\\n');
      counting = true;
      await store.clusterNarrowRollups();
      counting = false;
      process.stdout.write('done ' + statements + '\\n');
      if (round === ${passes}) process.exit(0);
    }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  // 'close': after the exit and the end of its output, so `lines()` holds every line.
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
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
    for (let round = 0; round < 4; round++) {
      await ingestAll(t.app, [
        ...events(acme.orgId, 1500, round + 1),
        ...events(other.orgId, 700, round + 5),
      ]);
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

/** Waits for a pass loop to exit; says how. */
async function exitOf(loop: ReturnType<typeof passLoop>): Promise<string> {
  await loop.exited;
  return loop.child.signalCode ?? `exit ${String(loop.child.exitCode)}: ${loop.stderr()}`;
}

describe('the clustering pass under SIGKILL', () => {
  it('loses and double-counts nothing when the process is killed before any statement of a pass or at any time', async () => {
    const before = await storeState();
    expect(before.usage_quarter_hour_metadata).not.toMatch(/^null/);
    // A whole pass, to learn its statements (the same in every pass: the loop gives each
    // table work before it).
    const counted = passLoop({ passes: 1 });
    expect(await exitOf(counted)).toBe('exit 0: ');
    const statements = Number(/^done (\d+)$/.exec(counted.lines()[1])?.[1]);
    expect(statements).toBeGreaterThan(20);
    // Killed before each statement in turn: every transaction boundary of the pass.
    for (let killAt = 1; killAt <= statements; killAt++) {
      const loop = passLoop({ killAtStatement: killAt });
      expect({ killAt, exit: await exitOf(loop) }).toEqual({ killAt, exit: 'SIGKILL' });
      // Killed inside a pass: its last pass never said it was done. (A pass with less work
      // runs fewer statements: one before it may have ended without reaching `killAt`.)
      expect({ killAt, last: loop.lines().at(-1) }).toEqual({ killAt, last: 'pass' });
    }
    // And inside a statement of a pass: a random one, a random few ms after it started.
    const random = seeded(33_406);
    for (let kill = 0; kill < KILLS; kill++) {
      const loop = passLoop({
        killInStatement: 1 + Math.floor(random() * statements),
        killDelayMs: Math.floor(random() * 4),
      });
      expect({ kill, exit: await exitOf(loop) }).toEqual({ kill, exit: 'SIGKILL' });
      // It kills itself only while a pass runs: its last pass never said it was done.
      expect(loop.lines().at(-1)).toBe('pass');
    }
    expect(await storeState()).toEqual(before);
  }, 1_800_000);
});
