import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../config/app-config.js';
import { ProcessingError } from '../core/processing-error.js';
import { SafeFetcher } from './safe-fetcher.js';

/** The error a fetch of `path` on the misbehaving server ends with. */
async function failureOf(sut: SafeFetcher, url: string): Promise<ProcessingError> {
  const error = await sut.fetchDocument(url, 1_000_000).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProcessingError);
  return error as ProcessingError;
}

describe('upstream failures of a URL input', () => {
  let server: http.Server;
  let base: string;
  let sut: SafeFetcher;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/bad-redirect') {
        res.writeHead(302, { location: 'http://127.0.0.1%09:4399/' }).end();
      } else if (req.url === '/trickle') {
        // A byte every 100 ms: never idle long enough for a per-chunk timeout.
        res.writeHead(200, { 'content-type': 'application/pdf' });
        const timer = setInterval(() => res.write('x'), 100);
        res.on('close', () => clearInterval(timer));
      } else if (req.url === '/reset') {
        res.writeHead(200, { 'content-length': '1000' });
        res.write('%PDF-1.7 half a body');
        setTimeout(() => req.socket.destroy(), 50);
      } else {
        res.end('ok');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    sut = new SafeFetcher(loadConfig({ FETCH_ALLOW_HOSTS: '127.0.0.1', FETCH_TIMEOUT_MS: '700' }));
  });
  afterAll(async () => {
    await sut.beforeApplicationShutdown();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('answers a redirect to an invalid URL with 502 INPUT_REDIRECT_INVALID naming it', async () => {
    const error = await failureOf(sut, `${base}/bad-redirect`);
    expect([error.status, error.code]).toEqual([502, 'INPUT_REDIRECT_INVALID']);
    expect(error.message).toContain('127.0.0.1%09:4399');
  });

  it('answers a body trickled past the time limit with 504 INPUT_FETCH_TIMEOUT, in time', async () => {
    const started = Date.now();
    const error = await failureOf(sut, `${base}/trickle`);
    expect([error.status, error.code]).toEqual([504, 'INPUT_FETCH_TIMEOUT']);
    expect(error.message).toContain('700 ms (FETCH_TIMEOUT_MS)');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('answers a connection reset in the middle of the body with 502 INPUT_FETCH_INTERRUPTED', async () => {
    const error = await failureOf(sut, `${base}/reset`);
    expect([error.status, error.code]).toEqual([502, 'INPUT_FETCH_INTERRUPTED']);
  });
});
