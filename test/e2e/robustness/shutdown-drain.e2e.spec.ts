import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { startFileServer, type FileServer } from '../../support/file-server.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
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
 * removed) instead of holding the stop for ever. Sync requests in flight get their job's
 * answer when it finishes within SHUTDOWN_DRAIN_MS; new jobs are refused meanwhile. One
 * still waiting then is told its job id, and that job finishes after the restart.
 */
describe('shutdown with connections still open', () => {
  let dataDir: string;
  let files: FileServer | undefined;

  afterEach(async () => {
    await files?.close();
    files = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(drainMs: number): Promise<{ t: TestApp; key: string }> {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-drain-'));
    const t = await startTestApp(envOf(drainMs));
    return { t, key: await keyOf(t, 'org-drain') };
  }

  function envOf(drainMs: number): Record<string, string> {
    return {
      DATA_DIR: dataDir,
      SHUTDOWN_DRAIN_MS: String(drainMs),
      REQUEST_TIMEOUT_MS: '600000',
      // Sync parses of documents on a local server that answers when the spec says so.
      FETCH_ALLOW_HOSTS: '127.0.0.1',
      FETCH_DEADLINE_MS: '120000',
      FETCH_TIMEOUT_MS: '120000',
    };
  }

  /** A sync parse of a document whose server holds it until `release()`, under way. */
  async function syncParseInFlight(app: TestApp, key: string, name: string) {
    files ??= await startFileServer();
    const held = files.hold(`/${name}.txt`, `Invoice number 4242 for ${name}. Total due: 99.00`);
    const answer = client(app.baseUrl, key).post('/parse', { input: held.url });
    const server = files;
    await waitFor('the document download to start', () => server.requests.includes(`/${name}.txt`));
    return { answer, release: held.release };
  }

  it('answers an in-flight sync request whose job finishes during the drain, refusing new jobs meanwhile', async () => {
    const { t: app, key } = await start(LONG_DRAIN_MS);
    const org = client(app.baseUrl, key);
    const inFlight = await syncParseInFlight(app, key, 'in-flight');
    const closing = app.app.close();
    // The stop began: not ready, new jobs refused (async ones too), while the request waits.
    await waitFor('/ready to fail', async () => (await org.get('/ready')).status === 503);
    const ready = await org.get('/ready');
    expect(ready.body.error.checks.shutdown.detail).toEqual({
      state: 'draining',
      syncRequestsWaiting: 1,
    });
    const refused = await org.post('/parse_async', { input: 'https://example.com/a.pdf' });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(refused.body.error.code).toBe('SHUTTING_DOWN');

    inFlight.release();
    const answer = await inFlight.answer;
    await closing;
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body.result)).toContain('Invoice number 4242');
  });

  it('answers 503 SHUTTING_DOWN with the kept job once SHUTDOWN_DRAIN_MS is over; the job finishes after a restart', async () => {
    const { t: app, key } = await start(DRAIN_MS);
    const inFlight = await syncParseInFlight(app, key, 'too-late');
    const started = Date.now();
    await app.app.close();
    const answer = await inFlight.answer;
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('10');
    expect(answer.body.error).toMatchObject({ code: 'SHUTTING_DOWN', job_id: expect.any(String) });
    expect(answer.body.error.message).toContain(`poll GET /job/${answer.body.error.job_id}`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(DRAIN_MS - 100);
    inFlight.release();

    // The client was told to poll: the restart on the same data finishes the job.
    const restarted = await startTestApp(envOf(DRAIN_MS));
    try {
      const org = client(restarted.baseUrl, await keyOf(restarted, 'org-drain'));
      const job = await waitForJob(org, answer.body.error.job_id as string, 90_000);
      expect(job.status).toBe('Completed');
      expect(JSON.stringify(job.result)).toContain('Invoice number 4242');
    } finally {
      await restarted.close();
    }
  });

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
    // Closed by the server once answered, not held until the keep-alive timeout (72 s) or the
    // drain (60 s): the bound leaves a loaded machine room below both.
    expect(connectionMs).toBeLessThan(40_000);
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
