import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { client, keyOf } from '../../support/processing-client.js';
import { bytesUnder } from '../../support/storage.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import {
  multipartFileHead,
  type RawAnswer,
  tricklingRequest,
} from '../../support/trickling-client.js';
import { waitFor } from '../../support/wait.js';

jest.setTimeout(120_000);

const REQUEST_TIMEOUT_MS = 4_000;

/** Files of interrupted writes (`*.part`) under `dir`. */
function partialFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((name) =>
    name.endsWith('.part'),
  );
}

interface TrickleOutcome extends RawAnswer {
  /** Whether a partly written upload was seen under DATA_DIR/blobs while the bytes came. */
  partialSeen: boolean;
}

/** Trickles a request that never ends; the answer, and whether a partial file was seen. */
async function trickle(
  baseUrl: string,
  request: Parameters<typeof tricklingRequest>[1],
  blobs: string,
): Promise<TrickleOutcome> {
  let partialSeen = false;
  const answer = await tricklingRequest(baseUrl, request, () => {
    if (partialFiles(blobs).length > 0) partialSeen = true;
  }).answer;
  return { ...answer, partialSeen };
}

/**
 * A client that trickles an upload cannot hold its connection and file for ever: past
 * REQUEST_TIMEOUT_MS the request is answered 408 in the error envelope and the partly
 * written file is removed, for multipart uploads and presigned PUTs alike.
 */
describe('an upload trickled slower than the request timeout', () => {
  let t: TestApp;
  let key: string;
  let blobs: string;

  beforeAll(async () => {
    t = await startTestApp({ REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) });
    key = await keyOf(t, 'org-trickle');
    blobs = path.join(t.dataDir, 'blobs');
  });
  afterAll(async () => {
    await t?.close();
  });

  function expectTimedOut(outcome: TrickleOutcome): void {
    expect(outcome.partialSeen).toBe(true);
    expect(outcome.status).toBe(408);
    expect(JSON.parse(outcome.body)).toEqual({
      error: { code: 'REQUEST_TIMEOUT', message: expect.any(String) },
    });
    expect(outcome.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    // Well before Node's own 60 s limit on a request's headers.
    expect(outcome.ms).toBeLessThan(40_000);
  }

  it('answers a multipart upload 408 and leaves no bytes under DATA_DIR', async () => {
    const boundary = 'trickle-boundary';
    const outcome = await trickle(
      t.baseUrl,
      {
        method: 'POST',
        target: '/upload',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        head: multipartFileHead(boundary, 'slow.txt'),
      },
      blobs,
    );
    expectTimedOut(outcome);
    await waitFor('the partial upload to be removed', () => bytesUnder(blobs) === 0);
    expect(partialFiles(blobs)).toEqual([]);
  });

  it('answers a presigned PUT 408, leaves no bytes, and the URL can be used again', async () => {
    const org = client(t.baseUrl, key);
    const presigned = (await org.post('/upload?extension=txt')).body as {
      file_id: string;
      presigned_url: string;
    };
    const target = presigned.presigned_url.replace(/^https?:\/\/[^/]+/, '');
    const outcome = await trickle(
      t.baseUrl,
      { method: 'PUT', target, headers: { 'content-type': 'text/plain' }, head: '' },
      blobs,
    );
    expectTimedOut(outcome);
    await waitFor('the partial upload to be removed', () => bytesUnder(blobs) === 0);
    expect(partialFiles(blobs)).toEqual([]);
    // The cut PUT gave its claim back: the same URL takes the bytes now.
    const retried = await fetch(`${t.baseUrl}${target}`, { method: 'PUT', body: 'Invoice 1' });
    expect(retried.status).toBe(200);
    const parsed = await org.post('/parse', { input: presigned.file_id });
    expect(parsed.status).toBe(200);
  });

  it('keeps answering ordinary requests well within the timeout', async () => {
    const org = client(t.baseUrl, key);
    const form = new FormData();
    form.append('file', new Blob(['Invoice number 9. Total 10.00']), 'quick.txt');
    const res = await fetch(`${t.baseUrl}/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(res.status).toBe(200);
    const { file_id } = (await res.json()) as { file_id: string };
    expect((await org.post('/parse', { input: file_id })).status).toBe(200);
  });
});
