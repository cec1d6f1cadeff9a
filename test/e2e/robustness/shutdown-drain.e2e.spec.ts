import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { keyOf } from '../../support/processing-client.js';
import { bytesUnder } from '../../support/storage.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { multipartFileHead, tricklingRequest } from '../../support/trickling-client.js';
import { waitFor } from '../../support/wait.js';

jest.setTimeout(120_000);

const DRAIN_MS = 3_000;
/** Longer than the 15 s a connection may take to close in the first case. */
const LONG_DRAIN_MS = 60_000;
const BOUNDARY = 'drain-boundary';

/**
 * A graceful stop ends in bounded time whatever the clients do: connections are closed as
 * soon as their request is answered (not after the 72 s keep-alive timeout), and a request
 * still arriving after SHUTDOWN_DRAIN_MS has its connection closed (and its partial upload
 * removed) instead of holding the stop for ever.
 */
describe('shutdown with connections still open', () => {
  let dataDir: string;

  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(drainMs: number): Promise<{ t: TestApp; key: string }> {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-drain-'));
    const t = await startTestApp({
      DATA_DIR: dataDir,
      SHUTDOWN_DRAIN_MS: String(drainMs),
      REQUEST_TIMEOUT_MS: '600000',
    });
    return { t, key: await keyOf(t, 'org-drain') };
  }

  function upload(app: TestApp, key: string) {
    return tricklingRequest(app.baseUrl, {
      method: 'POST',
      target: '/upload',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      head: multipartFileHead(BOUNDARY, 'slow.txt'),
    });
  }

  it('answers a request that completes during the stop, then closes its keep-alive connection at once', async () => {
    const { t: app, key } = await start(LONG_DRAIN_MS);
    const request = upload(app, key);
    await waitFor('the upload to be written', () => bytesUnder(path.join(dataDir, 'blobs')) > 0);
    const closing = app.app.close();
    await waitFor('the server to stop listening', () => !app.app.getHttpServer().listening);
    const closeStarted = Date.now();
    request.finish(`\r\n--${BOUNDARY}--\r\n`);
    const answer = await request.answer;
    const connectionMs = Date.now() - closeStarted;
    await closing;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({
      file_id: expect.stringMatching(/^docproc:\/\//),
      presigned_url: null,
    });
    // Closed by the server once answered, not held until the keep-alive timeout or the drain.
    expect(connectionMs).toBeLessThan(15_000);
  });

  it('closes a connection whose request never ends after SHUTDOWN_DRAIN_MS, removing its partial upload', async () => {
    const { t: app, key } = await start(DRAIN_MS);
    const request = upload(app, key);
    await waitFor('the upload to be written', () => bytesUnder(path.join(dataDir, 'blobs')) > 0);
    const started = Date.now();
    await app.app.close();
    const closeMs = Date.now() - started;
    const answer = await request.answer;
    expect(answer.status).toBeNull();
    expect(closeMs).toBeGreaterThanOrEqual(DRAIN_MS - 100);
    expect(closeMs).toBeLessThan(DRAIN_MS + 30_000);
    await waitFor('the partial upload to be removed', () => {
      const blobs = path.join(dataDir, 'blobs');
      return bytesUnder(blobs) === 0;
    });
  });
});
