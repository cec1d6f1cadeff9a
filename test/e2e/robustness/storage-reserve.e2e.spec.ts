import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { client, keyOf } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

jest.setTimeout(60_000);

/** A reserve larger than any test machine's free space: the volume counts as full. */
const RESERVE_MB = 1_048_576;

/**
 * A data volume below DATA_DIR_MIN_FREE_MB takes no new uploads or jobs (503 STORAGE_FULL
 * with Retry-After, never a 500), says so on /ready and /metrics, and keeps serving reads,
 * so DuckDB is not driven into a full disk, where it aborts the process mid-write.
 */
describe('free disk space below the reserve', () => {
  let t: TestApp | undefined;

  afterEach(async () => {
    await t?.close();
    if (t) fs.rmSync(t.dataDir, { recursive: true, force: true });
    t = undefined;
  });

  async function upload(app: TestApp, key: string): Promise<Response> {
    const form = new FormData();
    form.append('file', new Blob(['Invoice number 7']), 'invoice.txt');
    return fetch(`${app.baseUrl}/upload?extension=txt`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
  }

  it('refuses uploads and jobs with 503 STORAGE_FULL and fails /ready, reads still served', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-reserve-'));
    const stats = fs.statfsSync(dataDir);
    expect(stats.bavail * stats.bsize).toBeLessThan(RESERVE_MB * 1024 * 1024);
    t = await startTestApp({ DATA_DIR: dataDir, DATA_DIR_MIN_FREE_MB: String(RESERVE_MB) });
    const key = await keyOf(t, 'org-reserve');
    const api = client(t.baseUrl, key);

    const uploaded = await upload(t, key);
    expect(uploaded.status).toBe(503);
    expect(uploaded.headers.get('retry-after')).toBe('60');
    expect(((await uploaded.json()) as { error: { code: string } }).error.code).toBe(
      'STORAGE_FULL',
    );
    const blobs = path.join(dataDir, 'blobs');
    const stored = fs.existsSync(blobs)
      ? fs.readdirSync(blobs, { withFileTypes: true }).filter((entry) => entry.isFile())
      : [];
    expect(stored).toEqual([]);

    for (const route of ['/parse', '/parse_async', '/classify_async']) {
      const answer = await api.post(route, { input: 'https://example.com/a.pdf' });
      expect([route, answer.status, answer.body.error?.code]).toEqual([route, 503, 'STORAGE_FULL']);
      expect(answer.headers.get('retry-after')).toBe('60');
    }
    expect((await api.get('/jobs')).status).toBe(200);
    expect((await api.get('/jobs')).body.jobs).toEqual([]);

    const ready = await client(t.baseUrl, null).get('/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.error.checks.storage).toMatchObject({
      ready: false,
      detail: { minFreeBytes: RESERVE_MB * 1024 * 1024, volumes: [dataDir] },
    });
    expect(ready.body.error.checks.storage.detail.freeBytes).toBeGreaterThan(0);
    const metrics = await (await fetch(`${t.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/^docproc_data_dir_free_bytes \d+$/m);
    expect(metrics).toContain(`docproc_data_dir_min_free_bytes ${RESERVE_MB * 1024 * 1024}`);
  });

  it('takes uploads while the volume has room', async () => {
    t = await startTestApp({ DATA_DIR_MIN_FREE_MB: '1' });
    const key = await keyOf(t, 'org-room');
    expect((await upload(t, key)).status).toBe(200);
    expect((await client(t.baseUrl, null).get('/ready')).status).toBe(200);
  });
});
