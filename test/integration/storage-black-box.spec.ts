import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SeededAccount } from '../support/accounts.js';
import { buildDist, ChildApp } from '../support/child-app.js';
import { client, waitForJob } from '../support/processing-client.js';
import {
  bytesUnder,
  chunkedBody,
  largeText,
  seedOrgs,
  sendStreamed,
  sharedEntries,
} from '../support/storage.js';
import { waitFor } from '../support/wait.js';

// The storage checks on the real server (`node dist/src/main.js`, the defaults): large
// results beside another organization's work, a restart on the same data dir, a private
// data dir, and uploads that leave nothing when refused.

const LARGE_PARSES = 25;
/** One organization's queued parses in the fairness check (the executors default to 2). */
const BACKLOG_PARSES = 8;
let app: ChildApp;
let dataDir: string;
let orgA: SeededAccount;
let orgB: SeededAccount;
let firstStartStderr = '';
const parseIds: string[] = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-storage-'));
  const [buildDir, orgs] = await Promise.all([
    buildDist('storage-black-box'),
    seedOrgs(dataDir, ['Large results', 'Classifies']),
  ]);
  [orgA, orgB] = orgs;
  // A data dir an older release (or an operator) left open to other users.
  fs.chmodSync(dataDir, 0o755);
  fs.writeFileSync(path.join(dataDir, 'notes.txt'), 'left by an operator', { mode: 0o644 });
  app = new ChildApp(buildDir, { DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  await app.start();
  await waitFor('/ready', async () => (await fetch(`${app.baseUrl}/ready`)).status === 200);
  firstStartStderr = app.stderr;
}, 300_000);

afterAll(async () => {
  await app?.stop('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function upload(key: string, bytes: Buffer | string, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const res = await fetch(`${app.baseUrl}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { file_id: string }).file_id;
}

describe('storage on the real server with the defaults', () => {
  it('runs 25 parses with ~5 MB results beside another organization’s classifies: no 5xx, /jobs answering', async () => {
    const a = client(app.baseUrl, orgA.processingKey);
    const b = client(app.baseUrl, orgB.processingKey);
    const big = await upload(orgA.processingKey, largeText(1_100_000), 'big.txt');
    const small = await upload(orgB.processingKey, 'Invoice number 7. Total due 120.00', 'i.txt');
    const statuses: number[] = [];
    let done = false;

    const classifies = (async () => {
      let count = 0;
      while (!done || count < 5) {
        const res = await b.post('/classify', {
          input: small,
          classification_schema: [
            { category: 'invoice', criteria: ['invoice number', 'amount due'] },
            { category: 'letter', criteria: ['a personal letter'] },
          ],
        });
        statuses.push(res.status);
        expect(res.status).toBe(200);
        count++;
      }
    })();
    const listings = (async () => {
      while (!done) {
        const res = await a.get('/jobs?limit=5');
        statuses.push(res.status);
        expect(res.status).toBe(200);
      }
    })();
    try {
      for (let i = 0; i < LARGE_PARSES; i++) {
        const res = await a.post('/parse_async', { input: big });
        statuses.push(res.status);
        expect(res.status).toBe(200);
        parseIds.push(res.body.job_id);
      }
      for (const id of parseIds) {
        const job = await waitForJob(a, id, 240_000);
        expect([job.status, job.reason]).toEqual(['Completed', null]);
      }
    } finally {
      done = true;
      await Promise.all([classifies, listings]);
    }
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    const one = await a.get(`/job/${parseIds[0]}`);
    expect(JSON.stringify(one.body.result).length).toBeGreaterThan(4_000_000);
    const listed = await a.get(`/jobs?limit=${LARGE_PARSES}`);
    expect(listed.status).toBe(200);
    expect(listed.body.jobs).toHaveLength(LARGE_PARSES);
    expect(JSON.stringify(listed.body).length).toBeLessThan(200_000);
    expect((await fetch(`${app.baseUrl}/ready`)).status).toBe(200);
  }, 420_000);

  it('shares the executors between organizations: a sync classify is not queued behind another organization’s backlog', async () => {
    const a = client(app.baseUrl, orgA.processingKey);
    const b = client(app.baseUrl, orgB.processingKey);
    const big = await upload(orgA.processingKey, largeText(1_100_000), 'backlog.txt');
    const small = await upload(orgB.processingKey, 'Invoice number 8. Total due 99.00', 'j.txt');
    // Organization A's backlog waits in the priority lane, where sync requests wait too.
    const backlog: string[] = [];
    for (let i = 0; i < BACKLOG_PARSES; i++) {
      const res = await a.post('/parse_async', { input: big, async: { priority: true } });
      expect(res.status).toBe(200);
      backlog.push(res.body.job_id);
    }
    const classify = await b.post('/classify', {
      input: small,
      classification_schema: [
        { category: 'invoice', criteria: ['invoice number', 'amount due'] },
        { category: 'letter', criteria: ['a personal letter'] },
      ],
    });
    expect(classify.status).toBe(200);
    // Taken in arrival order, the classify would have waited for all but the last
    // executors' worth of the backlog; shared fairly, it is taken as the first executor
    // frees up, whatever the machine's speed.
    const statuses = await Promise.all(backlog.map(async (id) => (await a.get(`/job/${id}`)).body));
    const finished = statuses.filter((job) => job.status !== 'Pending' && job.status !== 'Idle');
    expect(finished.length).toBeLessThanOrEqual(BACKLOG_PARSES / 2);
    for (const id of backlog) {
      const job = await waitForJob(a, id, 240_000);
      expect([job.status, job.reason]).toEqual(['Completed', null]);
    }
  }, 420_000);

  it('keeps DATA_DIR private: an open data dir is reported and tightened, nothing is readable by others', () => {
    expect(firstStartStderr).toContain(`DATA_DIR ${dataDir} was accessible to other users`);
    expect(sharedEntries(dataDir)).toEqual([]);
  });

  it('leaves no bytes and no upload behind after a 150 MB chunked upload is refused', async () => {
    const before = bytesUnder(path.join(dataDir, 'blobs'));
    const boundary = 'docproc-oversize-boundary';
    const multipart = await sendStreamed(
      `${app.baseUrl}/upload`,
      'POST',
      chunkedBody(150 * 1024 * 1024, boundary),
      {
        authorization: `Bearer ${orgA.processingKey}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
    );
    expect(multipart.status).toBe(413);
    expect(JSON.stringify(multipart.body)).toContain('MAX_UPLOAD_BYTES');

    const a = client(app.baseUrl, orgA.processingKey);
    const presigned = (await a.post('/upload?extension=bin')).body as {
      file_id: string;
      presigned_url: string;
    };
    const put = await sendStreamed(
      presigned.presigned_url.replace(/^https?:\/\/[^/]+/, app.baseUrl),
      'PUT',
      chunkedBody(150 * 1024 * 1024),
      { 'content-type': 'application/octet-stream' },
    );
    expect([413, 'reset']).toContain(put.status);
    // Neither refused upload left a byte, and the presigned one is still not uploaded.
    await waitFor(
      'partial files to be gone',
      () => bytesUnder(path.join(dataDir, 'blobs')) === before,
    );
    const parse = await a.post('/parse', { input: presigned.file_id });
    expect([parse.status, parse.body.error?.code]).toEqual([409, 'FILE_NOT_UPLOADED']);
  }, 120_000);

  it('takes a presigned upload URL once: a second PUT is refused with 409', async () => {
    const a = client(app.baseUrl, orgA.processingKey);
    const presigned = (await a.post('/upload?extension=txt')).body as { presigned_url: string };
    const url = presigned.presigned_url.replace(/^https?:\/\/[^/]+/, app.baseUrl);
    const first = await fetch(url, { method: 'PUT', body: 'first bytes' });
    expect(first.status).toBe(200);
    const second = await fetch(url, { method: 'PUT', body: 'replacement' });
    expect(second.status).toBe(409);
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe(
      'UPLOAD_URL_USED',
    );
  });

  it('serves again after a restart on the same data dir, with the results of earlier jobs', async () => {
    // Closed gracefully: Nest re-raises the signal after closing, or the process ends with 0.
    expect([0, 'SIGTERM']).toContain(await app.stop('SIGTERM'));
    await app.start();
    await waitFor('/ready', async () => (await fetch(`${app.baseUrl}/ready`)).status === 200);
    const a = client(app.baseUrl, orgA.processingKey);
    const job = await a.get(`/job/${parseIds[parseIds.length - 1]}`);
    expect(job.status).toBe(200);
    expect(job.body.status).toBe('Completed');
    expect(JSON.stringify(job.body.result).length).toBeGreaterThan(4_000_000);
    const deleted = await a.delete(`/job/${parseIds[0]}`);
    expect(deleted.status).toBe(200);
    expect(fs.existsSync(path.join(dataDir, 'blobs', 'results', `${parseIds[0]}.json`))).toBe(
      false,
    );
    expect(sharedEntries(dataDir)).toEqual([]);
  }, 120_000);
});
