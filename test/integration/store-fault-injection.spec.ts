import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../src/config/app-config.js';
import { DuckDbService } from '../../src/database/duckdb.service.js';
import type { SeededAccount } from '../support/accounts.js';
import { buildDist, ChildApp } from '../support/child-app.js';
import { client, waitForJob } from '../support/processing-client.js';
import { largeText, seedOrgs, sharedEntries } from '../support/storage.js';
import { waitFor } from '../support/wait.js';

// Fault injection on the real server: SIGKILL at random points while it writes, and a
// store driven out of memory. After a restart on the same data dir with the defaults,
// every accepted job answers, and every completed job is billed exactly once.

let buildDir: string;
beforeAll(async () => {
  buildDir = await buildDist('store-faults');
}, 600_000);

/** A small seeded generator, so a failing run can be repeated from the seed it prints. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const SCHEMA = [
  { category: 'invoice', criteria: ['invoice number', 'amount due'] },
  { category: 'letter', criteria: ['a personal letter'] },
];

async function upload(baseUrl: string, key: string, text: string): Promise<string | null> {
  const form = new FormData();
  form.append('file', new Blob([text]), 'doc.txt');
  const res = await fetch(`${baseUrl}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  }).catch(() => null);
  if (res?.status !== 200) return null;
  return ((await res.json()) as { file_id: string }).file_id;
}

/** Uploads and submits jobs until `stop()`; the ids of the jobs the server accepted. */
function traffic(baseUrl: string, org: SeededAccount, metadataBytes: number) {
  const accepted: string[] = [];
  const statuses: number[] = [];
  let stopped = false;
  const api = client(baseUrl, org.processingKey);
  const loop = async (n: number) => {
    for (let i = 0; !stopped; i++) {
      const file = await upload(baseUrl, org.processingKey, `${largeText(50_000)} ${n}-${i}`);
      if (!file) continue;
      const body =
        i % 2 === 0
          ? {
              input: file,
              classification_schema: SCHEMA,
              async: { metadata: { n, i, pad: 'x'.repeat(metadataBytes) } },
            }
          : { input: file, async: { metadata: { n, i } } };
      const res = await api
        .post(i % 2 === 0 ? '/classify_async' : '/parse_async', body)
        .catch(() => null);
      if (!res) continue;
      statuses.push(res.status);
      if (res.status === 200) accepted.push(res.body.job_id as string);
    }
  };
  const loops = [loop(1), loop(2), loop(3)];
  return {
    accepted,
    statuses,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** Each completed job billed once and each other job not at all, read from the stopped store. */
async function billing(
  dataDir: string,
): Promise<{ job_id: string; status: string; events: bigint; outbox: bigint }[]> {
  const db = new DuckDbService(loadConfig({ DATA_DIR: dataDir }));
  await db.open();
  try {
    return await db.all(
      `SELECT j.job_id, j.status,
         (SELECT count(*) FROM usage_events e WHERE e.job_id = j.job_id) AS events,
         (SELECT count(*) FROM usage_outbox o WHERE o.job_id = j.job_id) AS outbox
       FROM processing_jobs j ORDER BY j.job_id`,
    );
  } finally {
    db.onApplicationShutdown();
  }
}

async function expectAllAnswered(app: ChildApp, org: SeededAccount, ids: readonly string[]) {
  const api = client(app.baseUrl, org.processingKey);
  const finished = new Map<string, string>();
  for (const id of ids) {
    const job = await waitForJob(api, id, 180_000);
    finished.set(id, job.status as string);
    if (job.status === 'Completed') expect(job.result).not.toBeNull();
    // A job running at several kills uses up its attempts: it ends Failed, saying so.
    else
      expect(job).toMatchObject({ status: 'Failed', reason: expect.stringMatching(/Interrupted/) });
  }
  return finished;
}

describe('store faults on the real server', () => {
  it('loses nothing accepted and bills nothing twice when SIGKILLed at random points during writes', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-sigkill-writes-'));
    const seed = Number(process.env.FAULT_SEED ?? Date.now() % 100_000);
    const next = random(seed);
    const [org] = await seedOrgs(dataDir, ['Killed while writing']);
    const app = new ChildApp(buildDir, { DATA_DIR: dataDir, LOG_LEVEL: 'error' });
    const accepted: string[] = [];
    try {
      for (let round = 0; round < 3; round++) {
        await app.start();
        const load = traffic(app.baseUrl, org, 2_000);
        const atMs = 1_000 + Math.floor(next() * 3_000);
        await waitFor(
          `round ${round}: jobs accepted (seed ${seed})`,
          () => load.accepted.length >= 3,
          120_000,
        );
        await new Promise((resolve) => setTimeout(resolve, atMs));
        expect(await app.stop('SIGKILL')).toBe('SIGKILL');
        await load.stop();
        expect(load.statuses.filter((status) => status >= 500)).toEqual([]);
        accepted.push(...load.accepted);
      }
      await app.start();
      const finished = await expectAllAnswered(app, org, accepted);
      // None is lost: all answered above, and most ran to completion despite the kills.
      expect(
        [...finished.values()].filter((status) => status === 'Completed').length,
      ).toBeGreaterThan(accepted.length / 2);
      await waitFor('every completion relayed to the usage store', async () => {
        const metrics = await (await fetch(`${app.baseUrl}/metrics`)).text();
        return /docproc_usage_outbox_backlog 0\b/.test(metrics);
      });
      // Closed gracefully: Nest re-raises the signal after closing, or the process ends with 0.
      expect([0, 'SIGTERM']).toContain(await app.stop('SIGTERM'));
      const rows = await billing(dataDir);
      const wrong = rows.filter((row) =>
        row.status === 'completed'
          ? row.events !== 1n || row.outbox !== 1n
          : row.events !== 0n || row.outbox !== 0n,
      );
      expect({ seed, wrong }).toEqual({ seed, wrong: [] });
      for (const id of accepted) expect(rows.some((row) => row.job_id === id)).toBe(true);
      expect(sharedEntries(dataDir)).toEqual([]);
    } finally {
      await app.stop('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    // Four starts of the server (each up to 180 s on a loaded machine) and every job waited
    // on: deadlines on conditions, generous so that load alone never fails the spec.
  }, 1_200_000);

  it('fails and exits non-zero when the store runs out of memory; a start with the defaults serves every accepted job', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-store-oom-'));
    const [org] = await seedOrgs(dataDir, ['Out of memory']);
    const starved = new ChildApp(buildDir, {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      DUCKDB_MEMORY_LIMIT: '12MB',
      ASYNC_METADATA_MAX_BYTES: String(1024 * 1024),
    });
    const healthy = new ChildApp(buildDir, {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
    });
    try {
      await starved.start();
      // Large payloads (400 KB of metadata a job) fill the tiny buffer pool quickly (in seconds
      // on a quiet machine; the deadline leaves a loaded one's slower traffic the time it needs).
      const load = traffic(starved.baseUrl, org, 400_000);
      const exited = await starved.waitForExit(300_000).finally(() => load.stop());
      expect(exited).toBe(70);
      expect(starved.stderr).toMatch(
        /the database failed and cannot be used any more \((Out of Memory|.*could not allocate|.*failed to pin block|FATAL Error)/,
      );
      expect(load.statuses.filter((status) => status >= 500 && status !== 503)).toEqual([]);

      await healthy.start();
      await waitFor('/ready', async () => (await fetch(`${healthy.baseUrl}/ready`)).status === 200);
      const finished = await expectAllAnswered(healthy, org, load.accepted);
      expect([...finished.values()].every((status) => status === 'Completed')).toBe(true);
    } finally {
      await starved.stop('SIGKILL');
      await healthy.stop('SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 900_000);
});
