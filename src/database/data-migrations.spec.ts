import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../config/app-config.js';
import { FileBlobStore, blobRootOf } from './blob-store.js';
import { DuckDbService } from './duckdb.service.js';
import { applyMigrations, findSqlDirectory } from './migrations.js';

// Each test: a fresh data dir and a database opened in it.
let dir: string;
let db: DuckDbService;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-data-migrations-'));
  db = new DuckDbService(loadConfig({ DATA_DIR: dir }));
  await db.open();
});
afterEach(() => {
  db.onApplicationShutdown();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A copy of `sql/` under `dir` with the migrations numbered below `version` only. */
function migrationsBefore(dir: string, version: string): string {
  const current = findSqlDirectory();
  const earlier = fs.mkdtempSync(path.join(dir, 'sql-'));
  for (const file of fs.readdirSync(current)) {
    if (file.endsWith('.sql') && file.slice(0, 3) < version) {
      fs.copyFileSync(path.join(current, file), path.join(earlier, file));
    }
  }
  return earlier;
}

/** A data dir written by a release that kept job results in their rows keeps answering. */
describe('070: job results move from rows to files', () => {
  async function insertJob(jobId: string, result: string | null): Promise<void> {
    await db.run(
      `INSERT INTO processing_jobs (job_id, org_id, api_key_id, type, status, is_async, request,
         result, created_at)
       VALUES ($1, 'org_1', 'pk_1', 'Parse', $2, true, '{}', $3, now())`,
      [jobId, result === null ? 'queued' : 'completed', result],
    );
  }

  it('writes each result to its file, keeps key, size and hash, and empties the column', async () => {
    await applyMigrations(db, undefined, migrationsBefore(dir, '070'));
    const large = JSON.stringify({ job_id: 'job-big', result: { text: 'x'.repeat(2_000_000) } });
    await insertJob('job-big', large);
    await insertJob('job-small', '{"category":"invoice"}');
    await insertJob('job-queued', null);

    expect(await applyMigrations(db)).toContain('070_job_results_as_files.sql');

    const rows = await db.all<{
      job_id: string;
      result: string | null;
      result_key: string | null;
      result_bytes: bigint | null;
    }>(
      `SELECT job_id, CAST(result AS VARCHAR) AS result, result_key, result_bytes
       FROM processing_jobs ORDER BY job_id`,
    );
    expect(rows).toEqual([
      {
        job_id: 'job-big',
        result: null,
        result_key: 'results/job-big.json',
        result_bytes: BigInt(large.length),
      },
      { job_id: 'job-queued', result: null, result_key: null, result_bytes: null },
      {
        job_id: 'job-small',
        result: null,
        result_key: 'results/job-small.json',
        result_bytes: 22n,
      },
    ]);
    const blobs = new FileBlobStore(blobRootOf(dir));
    expect(JSON.parse((await blobs.read('results/job-big.json')).toString())).toEqual(
      JSON.parse(large),
    );
    // A second start finds the migration recorded and moves nothing again.
    expect(await applyMigrations(db)).toEqual([]);
  });

  it('carries on after a start that stopped midway (SQL committed, version not recorded)', async () => {
    await applyMigrations(db, undefined, migrationsBefore(dir, '070'));
    await insertJob('job-1', '{"n":1}');
    await db.run(
      fs.readFileSync(path.join(findSqlDirectory(), '070_job_results_as_files.sql'), 'utf8'),
    );
    expect(await applyMigrations(db)).toContain('070_job_results_as_files.sql');
    const [row] = await db.all<{ result_key: string }>(`SELECT result_key FROM processing_jobs`);
    expect(row.result_key).toBe('results/job-1.json');
  });
});

/** Jobs stored with `__kind` / `__versions` inside their request keep running after 132. */
describe('132: a job request gives its versions to the versions column', () => {
  async function insertJob(
    jobId: string,
    type: string,
    request: Record<string, unknown> | null,
    requestKey: string | null = null,
  ): Promise<void> {
    await db.run(
      `INSERT INTO processing_jobs (job_id, org_id, api_key_id, type, status, is_async, request,
         request_key, created_at)
       VALUES ($1, 'org_1', 'pk_1', $2, 'queued', true, $3, $4, now())`,
      [jobId, type, JSON.stringify(request), requestKey],
    );
  }

  it('moves the versions of rows and of request files to the column and drops both keys', async () => {
    await applyMigrations(db, undefined, migrationsBefore(dir, '132'));
    const blobs = new FileBlobStore(blobRootOf(dir));
    const layout = { layout: { family: 'layout_model', version: '0.9', pinned: true } };
    const plan = { parse: layout, steps: [{ kind: 'split' }] };
    await insertJob('parse-row', 'Parse', { input: 'a', __kind: 'parse', __versions: layout });
    await insertJob('classify-row', 'Classify', { input: 'b', classification_schema: [] });
    const file = { input: 'c', note: 'x'.repeat(5_000), __kind: 'pipeline', __versions: plan };
    const key = (
      await blobs.write('payloads/requests/file.json', Buffer.from(JSON.stringify(file)))
    ).key;
    await insertJob('pipeline-file', 'Pipeline', null, key);

    expect(await applyMigrations(db)).toContain('132_job_versions_column.sql');

    const rows = await db.all<{ job_id: string; request: string; versions: string | null }>(
      `SELECT job_id, CAST(request AS VARCHAR) AS request, CAST(versions AS VARCHAR) AS versions
       FROM processing_jobs ORDER BY job_id`,
    );
    expect(
      rows.map((r) => [r.job_id, JSON.parse(r.request), JSON.parse(r.versions ?? 'null')]),
    ).toEqual([
      ['classify-row', { input: 'b', classification_schema: [] }, null],
      ['parse-row', { input: 'a' }, layout],
      ['pipeline-file', null, plan],
    ]);
    expect(JSON.parse((await blobs.read(key)).toString())).toEqual({
      input: 'c',
      note: file.note,
    });
    expect(await applyMigrations(db)).toEqual([]);
  });
});
