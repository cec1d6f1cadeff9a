import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { UploadService } from '../../../src/processing/upload/upload.service.js';
import { startTestApp, TestApp } from '../../support/test-app.js';
import { makePdf } from '../../support/documents.js';
import { FileServer, startFileServer } from '../../support/file-server.js';
import { Json, client, keyOf, waitForJob } from '../../support/processing-client.js';

const schema = [
  { category: 'invoice', criteria: ['invoice number', 'amount due'] },
  { category: 'resume', criteria: ['work experience', 'education'] },
];

async function uploadMultipart(baseUrl: string, key: string, body: string, extension = 'txt') {
  const form = new FormData();
  form.append('file', new Blob([body]), `doc.${extension}`);
  const res = await fetch(`${baseUrl}/upload?extension=${extension}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Json };
}

describe('uploads and input resolution', () => {
  let t: TestApp;
  let files: FileServer;
  beforeAll(async () => {
    files = await startFileServer();
    t = await startTestApp({ FETCH_ALLOW_HOSTS: '127.0.0.1', MAX_UPLOAD_BYTES: '4096' });
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  it('stores a multipart upload and classifies it through docproc://', async () => {
    const uploaded = await uploadMultipart(
      t.baseUrl,
      await keyOf(t, 'org-upload'),
      'Invoice number 7, amount due 10',
    );
    expect(uploaded).toEqual({
      status: 200,
      body: {
        file_id: expect.stringMatching(/^docproc:\/\/[0-9a-f-]{36}\.txt$/),
        presigned_url: null,
      },
    });
    const api = client(t.baseUrl, await keyOf(t, 'org-upload'));
    const viaString = await api.post('/classify', {
      input: uploaded.body.file_id,
      classification_schema: schema,
    });
    expect(viaString.body.result).toEqual({ category: 'invoice' });
    const viaObject = await api.post('/classify', {
      input: uploaded.body,
      classification_schema: schema,
    });
    expect(viaObject.body.result).toEqual({ category: 'invoice' });
  });

  it("hides one organization's files from another (404, no job)", async () => {
    const uploaded = await uploadMultipart(
      t.baseUrl,
      await keyOf(t, 'org-owner'),
      'Invoice number 7',
    );
    const other = client(t.baseUrl, await keyOf(t, 'org-intruder'));
    const sync = await other.post('/classify', {
      input: uploaded.body.file_id,
      classification_schema: schema,
    });
    expect(sync.status).toBe(404);
    expect(sync.body.error.code).toBe('FILE_NOT_FOUND');
    const async = await other.post('/classify_async', { input: uploaded.body.file_id });
    expect(async.status).toBe(404);
    expect((await other.get('/jobs')).body.jobs).toEqual([]);
  });

  it('rejects uploads over MAX_UPLOAD_BYTES with 413', async () => {
    const res = await uploadMultipart(t.baseUrl, await keyOf(t, 'org-upload'), 'x'.repeat(5000));
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses a body with two small files with 422 naming the one-file rule, not a size limit, and keeps neither', async () => {
    // Uploaded files are blobs named by their file id (results have names of their own).
    const folder = path.join(t.dataDir, 'blobs');
    const blobs = () =>
      fs.existsSync(folder) ? fs.readdirSync(folder).filter((name) => name.endsWith('.txt')) : [];
    const before = blobs();
    const form = new FormData();
    form.append('file', new Blob(['Invoice number 7']), 'a.txt');
    form.append('file', new Blob(['Invoice number 8']), 'b.txt');
    const res = await fetch(`${t.baseUrl}/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await keyOf(t, 'org-upload')}` },
      body: form,
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      detail: [
        {
          loc: ['body', 'file'],
          msg: 'Send one file per upload: the body has more than one file part',
          type: 'too_long',
          ctx: { max_files: 1 },
        },
      ],
    });
    expect(blobs().sort()).toEqual(before.sort());
  });

  it('refuses an empty file with 400 EMPTY_UPLOAD, multipart or presigned, and keeps nothing', async () => {
    const key = await keyOf(t, 'org-empty');
    const multipart = await uploadMultipart(t.baseUrl, key, '');
    expect([multipart.status, multipart.body.error.code]).toEqual([400, 'EMPTY_UPLOAD']);
    const api = client(t.baseUrl, key);
    const created = await api.post('/upload?extension=pdf');
    const empty = await fetch(created.body.presigned_url, { method: 'PUT', body: '' });
    expect([empty.status, ((await empty.json()) as Json).error.code]).toEqual([
      400,
      'EMPTY_UPLOAD',
    ]);
    // The URL stays usable: the bytes can be sent again.
    expect((await api.post('/parse', { input: created.body.file_id })).status).toBe(409);
    const put = await fetch(created.body.presigned_url, { method: 'PUT', body: 'An invoice' });
    expect(put.status).toBe(200);
  });

  it('hands out a signed, expiring presigned URL to PUT the bytes to', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-presign'));
    const created = await api.post('/upload?extension=txt');
    expect(created.status).toBe(200);
    expect(created.body.presigned_url).toMatch(/\/upload\/.+\?expires=\d+&signature=/);
    const early = await api.post('/classify_async', { input: created.body.file_id });
    expect(early.status).toBe(409);

    const forged = created.body.presigned_url.replace(/signature=[^&]+/, 'signature=AAAA');
    expect((await fetch(forged, { method: 'PUT', body: 'x' })).status).toBe(403);
    const tooBig = await fetch(created.body.presigned_url, {
      method: 'PUT',
      body: 'y'.repeat(5000),
    });
    expect(tooBig.status).toBe(413);
    const put = await fetch(created.body.presigned_url, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: 'Work experience and education',
    });
    expect(put.status).toBe(200);
    const res = await api.post('/classify', {
      input: created.body.file_id,
      classification_schema: schema,
    });
    expect(res.body.result).toEqual({ category: 'resume' });
  });

  it('refuses a multipart form PUT to a presigned URL with 415, and the URL stays usable', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-presign-form'));
    const created = await api.post('/upload?extension=txt');
    const form = new FormData();
    form.append('file', new Blob(['Work experience and education']), 'cv.txt');
    const asForm = await fetch(created.body.presigned_url, { method: 'PUT', body: form });
    expect([asForm.status, ((await asForm.json()) as Json).error.code]).toEqual([
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ]);
    expect((await api.post('/parse', { input: created.body.file_id })).status).toBe(409);
    const put = await fetch(created.body.presigned_url, {
      method: 'PUT',
      body: 'Work experience and education',
    });
    expect(put.status).toBe(200);
    const parsed = await api.post('/parse', { input: created.body.file_id });
    expect(parsed.body.result.chunks[0].content).toBe('Work experience and education');
  });

  it('concatenates an array of inputs in order', async () => {
    const a = files.put('/part-a.txt', 'Invoice number 9');
    const b = files.put('/part-b.txt', 'amount due 5');
    const res = await client(t.baseUrl, await keyOf(t, 'org-upload')).post('/classify', {
      input: [a, b],
      classification_schema: schema,
    });
    expect(res.body.usage.num_pages).toBe(2);
    expect(res.body.response_confidence.categories[0]).toMatchObject({
      category: 'invoice',
      confidence: expect.any(Number),
    });
  });

  it('reads a PDF its server sent gzipped, and stops a gzip bomb at MAX_UPLOAD_BYTES', async () => {
    const pdf = await makePdf(['Invoice number 4711, amount due 120 EUR']);
    expect(pdf.length).toBeLessThan(4096);
    const gzip = { 'content-encoding': 'gzip' };
    const served = files.put('/gzipped.pdf', zlib.gzipSync(pdf), 'application/pdf', gzip);
    const api = client(t.baseUrl, await keyOf(t, 'org-upload'));
    const read = await api.post('/classify', { input: served, classification_schema: schema });
    expect(read.status).toBe(200);
    expect(read.body.usage.num_pages).toBe(1);
    expect(read.body.response_confidence.categories[0].category).toBe('invoice');

    const bomb = files.put(
      '/bomb.pdf',
      zlib.gzipSync(Buffer.alloc(1_000_000)),
      'application/pdf',
      gzip,
    );
    const refused = await api.post('/classify', { input: bomb, classification_schema: schema });
    expect(refused.status).toBe(413);
    expect(refused.body.error).toMatchObject({
      code: 'INPUT_TOO_LARGE',
      message: expect.stringContaining('MAX_UPLOAD_BYTES'),
    });
  });

  it('removes presigned uploads whose URL expired unsent, and only those', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-presign-sweep'));
    const db = t.app.get(DuckDbService);
    const fileIdOf = (created: Json) => String(created.body.file_id).slice('docproc://'.length);
    const rowCount = async (fileId: string) =>
      (await db.all(`SELECT file_id FROM uploads WHERE file_id = $1`, [fileId])).length;
    const expired = await api.post('/upload?extension=txt');
    const fresh = await api.post('/upload?extension=txt');
    const sent = await api.post('/upload?extension=txt');
    expect(
      (await fetch(sent.body.presigned_url, { method: 'PUT', body: 'Invoice number 8' })).status,
    ).toBe(200);
    // Their URLs' expiry passed a while ago (the service's clock is not the spec's to move).
    for (const created of [expired, sent]) {
      await db.run(`UPDATE uploads SET expires_at = now() - INTERVAL 2 MINUTE WHERE file_id = $1`, [
        fileIdOf(created),
      ]);
    }
    expect(await t.app.get(UploadService).sweepExpiredPresigned()).toBe(1);
    expect(await rowCount(fileIdOf(expired))).toBe(0);
    expect(await rowCount(fileIdOf(fresh))).toBe(1);
    expect(await rowCount(fileIdOf(sent))).toBe(1);
    expect(
      (await api.post('/classify', { input: sent.body.file_id, classification_schema: schema }))
        .status,
    ).toBe(200);
    expect(
      (await fetch(fresh.body.presigned_url, { method: 'PUT', body: 'Invoice number 9' })).status,
    ).toBe(200);
  });

  it('deletes uploads past UPLOAD_RETENTION_SECONDS, row and file, and keeps the younger ones', async () => {
    const key = await keyOf(t, 'org-upload-retention');
    const api = client(t.baseUrl, key);
    const old = await uploadMultipart(t.baseUrl, key, 'Invoice number 10, amount due 3');
    const young = await uploadMultipart(t.baseUrl, key, 'Invoice number 11, amount due 4');
    const fileIdOf = (uploaded: { body: Json }) =>
      String(uploaded.body.file_id).slice('docproc://'.length);
    const blobOf = (uploaded: { body: Json }) => path.join(t.dataDir, 'blobs', fileIdOf(uploaded));
    expect(fs.existsSync(blobOf(old))).toBe(true);
    // Uploaded eight days ago, past the default retention of seven.
    await t.app
      .get(DuckDbService)
      .run(`UPDATE uploads SET uploaded_at = now() - INTERVAL 8 DAY WHERE file_id = $1`, [
        fileIdOf(old),
      ]);
    expect(await t.app.get(UploadService).sweepPastRetention()).toBe(1);
    expect(fs.existsSync(blobOf(old))).toBe(false);
    const gone = await api.post('/classify', {
      input: old.body.file_id,
      classification_schema: schema,
    });
    expect([gone.status, gone.body.error?.code]).toEqual([404, 'FILE_NOT_FOUND']);
    expect(fs.existsSync(blobOf(young))).toBe(true);
    const kept = await api.post('/classify', {
      input: young.body.file_id,
      classification_schema: schema,
    });
    expect(kept.body.result).toEqual({ category: 'invoice' });
  });

  it('deletes an upload on DELETE /upload/{file_id}, file and row, for its organization only', async () => {
    const key = await keyOf(t, 'org-upload-delete');
    const api = client(t.baseUrl, key);
    const stranger = client(t.baseUrl, await keyOf(t, 'org-upload-delete-other'));
    const first = await uploadMultipart(t.baseUrl, key, 'Invoice number 12, amount due 5');
    const second = await uploadMultipart(t.baseUrl, key, 'Invoice number 13, amount due 6');
    const fileIdOf = (uploaded: { body: Json }) =>
      String(uploaded.body.file_id).slice('docproc://'.length);
    const blobOf = (uploaded: { body: Json }) => path.join(t.dataDir, 'blobs', fileIdOf(uploaded));

    const foreign = await stranger.delete(`/upload/${fileIdOf(first)}`);
    expect([foreign.status, foreign.body.error?.code]).toEqual([404, 'FILE_NOT_FOUND']);
    expect(fs.existsSync(blobOf(first))).toBe(true);

    // The bare id, or the file_id as POST /upload gave it (the SDK sends either).
    const bare = await api.delete(`/upload/${fileIdOf(first)}`);
    expect([bare.status, bare.body]).toEqual([200, { file_id: first.body.file_id, deleted: true }]);
    const prefixed = await api.delete(`/upload/${encodeURIComponent(second.body.file_id)}`);
    expect([prefixed.status, prefixed.body]).toEqual([
      200,
      { file_id: second.body.file_id, deleted: true },
    ]);
    expect([fs.existsSync(blobOf(first)), fs.existsSync(blobOf(second))]).toEqual([false, false]);
    const gone = await api.post('/classify', {
      input: first.body.file_id,
      classification_schema: schema,
    });
    expect([gone.status, gone.body.error?.code]).toEqual([404, 'FILE_NOT_FOUND']);
    const again = await api.delete(`/upload/${fileIdOf(first)}`);
    expect([again.status, again.body.error?.code]).toEqual([404, 'FILE_NOT_FOUND']);

    // A presigned upload not sent yet goes too: its URL then finds no upload.
    const presigned = await api.post('/upload?extension=txt');
    const dropped = await api.delete(`/upload/${encodeURIComponent(presigned.body.file_id)}`);
    expect(dropped.status).toBe(200);
    const late = await fetch(presigned.body.presigned_url, { method: 'PUT', body: 'An invoice' });
    expect(late.status).toBe(404);
  });

  it('fails an async job whose URL cannot be fetched, with a reason and no usage', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-upload'));
    const submitted = await api.post('/classify_async', { input: `${files.baseUrl}/missing.txt` });
    const job = await waitForJob(api, submitted.body.job_id);
    expect(job).toMatchObject({
      status: 'Failed',
      reason: expect.stringContaining('HTTP 404'),
      result: null,
    });
    const sync = await api.post('/classify', { input: `${files.baseUrl}/missing.txt` });
    expect(sync.status).toBe(400);
    expect(sync.body.error.code).toBe('INPUT_FETCH_FAILED');
  });
});

describe('SSRF guard on inputs', () => {
  let t: TestApp;
  let files: FileServer;
  beforeAll(async () => {
    files = await startFileServer();
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  it.each([
    ['loopback literal', (port: string) => `http://127.0.0.1:${port}/a.txt`],
    ['localhost name (resolved)', (port: string) => `http://localhost:${port}/a.txt`],
    ['IPv4-mapped IPv6', (port: string) => `http://[::ffff:127.0.0.1]:${port}/a.txt`],
    ['metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['private network', () => 'http://10.0.0.1/a.txt'],
  ])('refuses %s without fetching it', async (_name, url) => {
    files.put('/a.txt', 'secret');
    const port = new URL(files.baseUrl).port;
    const before = files.requests.length;
    const res = await client(t.baseUrl, await keyOf(t, 'org-ssrf')).post('/classify', {
      input: url(port),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INPUT_URL_BLOCKED');
    expect(files.requests.length).toBe(before);
  });
});
