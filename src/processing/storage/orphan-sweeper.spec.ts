import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../config/app-config.js';
import { FileBlobStore, blobRootOf } from '../../database/blob-store.js';
import { DuckDbService } from '../../database/duckdb.service.js';
import { applyMigrations } from '../../database/migrations.js';
import { INLINE_REQUEST_MAX_BYTES, JobsRepository } from '../jobs/jobs.repository.js';
import { UploadsRepository } from '../upload/uploads.repository.js';
import { OrphanSweeper } from './orphan-sweeper.js';

describe(OrphanSweeper.name, () => {
  let dir: string;
  let db: DuckDbService;
  let blobs: FileBlobStore;
  let jobs: JobsRepository;
  let uploads: UploadsRepository;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-sweep-'));
    db = new DuckDbService(loadConfig({ DATA_DIR: dir }));
    await db.open();
    await applyMigrations(db);
    blobs = new FileBlobStore(blobRootOf(dir));
    jobs = new JobsRepository(db, blobs);
    uploads = new UploadsRepository(db);
  });
  afterEach(() => {
    db.onApplicationShutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const job = (jobId: string, request: Record<string, unknown>) => ({
    jobId,
    orgId: 'org_1',
    apiKeyId: 'pk_1',
    type: 'Extract' as const,
    isAsync: true,
    request,
    versions: { extract: { family: 'extract_model' } },
    metadata: undefined,
    persistResult: false,
  });

  /** Files as a previous process left them: written before this process started. */
  function age(key: string): void {
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(blobRootOf(dir), ...key.split('/')), past, past);
  }

  it('keeps a large request as a file the row refers to, read back and deleted with the job', async () => {
    const request = {
      input: 'https://example.com/a.pdf',
      schema: { note: 'x'.repeat(INLINE_REQUEST_MAX_BYTES) },
    };
    await db.transaction((tx) => jobs.insert(tx, job('job-large', request)));
    await db.transaction((tx) => jobs.insert(tx, job('job-small', { input: 'docproc://a.pdf' })));
    expect((await jobs.find('job-large'))!.request).toEqual(request);
    expect((await jobs.find('job-small'))!.request).toEqual({ input: 'docproc://a.pdf' });
    expect(await blobs.list('payloads')).toEqual(['payloads/requests/job-large.json']);
    const rows = await db.all<{ request: string }>(
      `SELECT CAST(request AS VARCHAR) AS request FROM processing_jobs WHERE job_id = 'job-large'`,
    );
    expect(rows[0].request).toBe('null');
    const files = await db.transaction((tx) => jobs.delete(tx, 'job-large'));
    expect(files).toEqual(['payloads/requests/job-large.json']);
  });

  it('removes what interrupted work left and keeps everything referred to or newer than the start', async () => {
    const sut = new OrphanSweeper(blobs, jobs, uploads);
    const request = { input: 'https://example.com/a.pdf', schema: { note: 'x'.repeat(5_000) } };
    await db.transaction((tx) => jobs.insert(tx, job('job-1', request)));
    const kept = ['payloads/requests/job-1.json', 'doc-complete.pdf'];
    await blobs.write('doc-complete.pdf', Buffer.from('%PDF'));
    await uploads.insert('doc-complete.pdf', 'org_1', 'pdf', 4, null);
    const orphans = ['results/job-gone.json', 'payloads/requests/job-gone.json', 'doc-cut.pdf'];
    for (const key of orphans) await blobs.write(key, Buffer.from('{}'));
    await uploads.insert('doc-pending.pdf', 'org_1', 'pdf', null, null);
    await uploads.claimPending('doc-pending.pdf');
    for (const key of [...kept, ...orphans]) age(key);
    fs.writeFileSync(
      path.join(blobRootOf(dir), '.doc-x.pdf.5d9e5c2e-0a6e-4d7a-8f43-3c1f0a9b8e7d.part'),
      'half',
    );
    await blobs.write('results/job-new.json', Buffer.from('{}'));

    // Results executors wrote: one for a job still running (its report may be on its way),
    // one for a job that finished without it, one for a job that is gone.
    await db.transaction((tx) => jobs.insert(tx, job('job-running', { input: 'x' })));
    await jobs.markRunning('job-running');
    await db.transaction((tx) => jobs.insert(tx, job('job-done', { input: 'x' })));
    await jobs.markRunning('job-done');
    await db.transaction((tx) => jobs.markFailed(tx, 'job-done', 'X', 'failed', 400));
    const staged = (jobId: string) => {
      const name = blobs.stagingName(`results/${jobId}.json`);
      fs.writeFileSync(path.join(blobs.stagingRoot, ...name.split('/')), '{}');
      return name;
    };
    const waiting = staged('job-running');
    staged('job-done');
    staged('job-gone');

    expect(await sut.sweep()).toEqual({
      partial: 1,
      staged: 2,
      jobFiles: 2,
      uploads: 1,
      claims: 1,
    });
    expect((await blobs.listStaged()).map((s) => s.name)).toEqual([waiting]);
    expect((await blobs.list('')).sort()).toEqual([...kept, 'results/job-new.json'].sort());
    expect((await uploads.find('doc-pending.pdf'))!.status).toBe('pending');
  });
});
