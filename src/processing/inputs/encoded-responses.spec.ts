import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makePdf } from '../../../test/support/documents.js';
import { loadConfig } from '../../config/app-config.js';
import { ProcessingError } from '../core/processing-error.js';
import { SafeFetcher } from './safe-fetcher.js';

/** What the server answers at a path: its Content-Encoding and the bytes sent as they are. */
interface Answer {
  encoding?: string;
  body: Buffer;
}

const LIMIT = 1_000_000;

/**
 * `size` bytes of a zstd stream written with a 128 MiB window: streamed, so the encoder
 * cannot shrink the window to a size it knows in advance, and varied, so it is used.
 */
async function wideWindowZstd(size: number): Promise<Buffer> {
  const encoder = zlib.createZstdCompress({
    params: { [zlib.constants.ZSTD_c_windowLog]: 27, [zlib.constants.ZSTD_c_compressionLevel]: 1 },
  });
  const chunks: Buffer[] = [];
  encoder.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => encoder.on('end', resolve));
  for (let at = 0; at < size; at += 2 ** 20) encoder.write(crypto.randomBytes(2 ** 20));
  encoder.end();
  await ended;
  return Buffer.concat(chunks);
}

describe('URL inputs served with a content encoding', () => {
  let server: http.Server;
  let base: string;
  let sut: SafeFetcher;
  let pdf: Buffer;
  let directory: string;
  const answers = new Map<string, Answer>();
  const acceptEncodings: (string | undefined)[] = [];

  beforeAll(async () => {
    pdf = await makePdf(['Invoice 4711', 'Second page of the invoice']);
    const gzipped = zlib.gzipSync(pdf);
    const bomb = zlib.gzipSync(Buffer.alloc(64 * LIMIT));
    answers.set('/gzip.pdf', { encoding: 'gzip', body: gzipped });
    answers.set('/x-gzip.pdf', { encoding: 'X-Gzip', body: gzipped });
    answers.set('/deflate.pdf', { encoding: 'deflate', body: zlib.deflateSync(pdf) });
    answers.set('/raw-deflate.pdf', { encoding: 'deflate', body: zlib.deflateRawSync(pdf) });
    answers.set('/br.pdf', { encoding: 'br', body: zlib.brotliCompressSync(pdf) });
    answers.set('/stacked.pdf', {
      encoding: 'gzip, br',
      body: zlib.brotliCompressSync(gzipped),
    });
    answers.set('/identity.pdf', { encoding: 'identity', body: pdf });
    answers.set('/plain.pdf', { body: pdf });
    answers.set('/empty', { encoding: 'gzip', body: Buffer.alloc(0) });
    answers.set('/bomb.pdf', { encoding: 'gzip', body: bomb });
    const zstd = zlib.zstdCompressSync(pdf, {
      params: { [zlib.constants.ZSTD_c_checksumFlag]: 1 },
    });
    answers.set('/zstd.pdf', { encoding: 'zstd', body: zstd });
    answers.set('/stacked-zstd.pdf', {
      encoding: 'gzip, zstd',
      body: zlib.zstdCompressSync(gzipped),
    });
    // The document in two frames, as a server compressing as it sends may write it.
    const half = pdf.length >> 1;
    answers.set('/frames-zstd.pdf', {
      encoding: 'zstd',
      body: Buffer.concat([
        zlib.zstdCompressSync(pdf.subarray(0, half)),
        zlib.zstdCompressSync(pdf.subarray(half)),
      ]),
    });
    // A skippable frame before the document's: read past, as the format says.
    const skippable = Buffer.concat([
      Buffer.from([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0]),
      Buffer.from('abc'),
    ]);
    answers.set('/skippable-zstd.pdf', {
      encoding: 'zstd',
      body: Buffer.concat([skippable, zstd]),
    });
    // Skippable frames decode to nothing: past 1 MiB of them the size limit would count none.
    const padding = Buffer.alloc(8 + 2 ** 20 + 1);
    padding.writeUInt32LE(0x184d2a50, 0);
    padding.writeUInt32LE(2 ** 20 + 1, 4);
    answers.set('/padded-zstd.pdf', { encoding: 'zstd', body: Buffer.concat([padding, zstd]) });
    answers.set('/zstd-bomb.pdf', {
      encoding: 'zstd',
      body: zlib.zstdCompressSync(Buffer.alloc(64 * LIMIT)),
    });
    // Cut inside its last block, and before its checksum: Node's decoder ends either quietly.
    answers.set('/truncated-zstd.pdf', {
      encoding: 'zstd',
      body: zstd.subarray(0, zstd.length >> 1),
    });
    answers.set('/zstd-without-checksum.pdf', {
      encoding: 'zstd',
      body: zstd.subarray(0, zstd.length - 4),
    });
    answers.set('/not-zstd.pdf', { encoding: 'zstd', body: pdf });
    answers.set('/compress.pdf', { encoding: 'compress', body: pdf });
    answers.set('/corrupt.pdf', { encoding: 'gzip', body: pdf });
    answers.set('/truncated.pdf', { encoding: 'gzip', body: gzipped.subarray(0, 200) });
    answers.set('/wrong-coding.pdf', { encoding: 'br', body: gzipped });
    answers.set('/too-many.pdf', { encoding: 'gzip, gzip, gzip, gzip, gzip', body: gzipped });
    answers.set('/wide-zstd.pdf', { encoding: 'zstd', body: await wideWindowZstd(16 * 2 ** 20) });
    server = http.createServer((req, res) => {
      acceptEncodings.push(req.headers['accept-encoding']);
      if (req.url === '/reset.pdf') {
        // Half the encoded body, then the connection drops: the server failed, not the coding.
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': gzipped.length });
        res.write(gzipped.subarray(0, gzipped.length >> 1));
        setTimeout(() => req.socket.destroy(), 50);
        return;
      }
      if (req.url === '/trickle.pdf') {
        // A gzip stream of a byte every 100 ms: decoding keeps up, the time limit ends it.
        res.writeHead(200, { 'content-encoding': 'gzip' });
        const gzip = zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH });
        gzip.pipe(res);
        const timer = setInterval(() => gzip.write('x'), 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      const answer = answers.get(req.url ?? '');
      if (!answer) return res.writeHead(404).end();
      res.writeHead(200, {
        'content-type': 'application/pdf',
        ...(answer.encoding ? { 'content-encoding': answer.encoding } : {}),
      });
      res.end(answer.body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    sut = new SafeFetcher(loadConfig({ FETCH_ALLOW_HOSTS: '127.0.0.1' }));
    directory = await fs.mkdtemp(path.join(os.tmpdir(), 'encoded-responses-'));
    // The bomb is what it says: small on the wire, far past the limit decoded.
    expect(bomb.length).toBeLessThan(LIMIT / 2);
  });
  afterAll(async () => {
    await sut.beforeApplicationShutdown();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await fs.rm(directory, { recursive: true, force: true });
  });

  /** The failure of fetching `urlPath` into memory and into a file, the same for both. */
  async function failureOf(urlPath: string): Promise<ProcessingError> {
    const inMemory = await sut.fetchDocument(`${base}${urlPath}`, LIMIT).then(
      () => null,
      (e: unknown) => e,
    );
    const budget = { limit: LIMIT, remaining: LIMIT };
    const file = path.join(directory, `failed${urlPath.replace(/\W/g, '-')}`);
    const toFile = await sut.fetchToFile(`${base}${urlPath}`, file, budget).then(
      () => null,
      (e: unknown) => e,
    );
    expect(inMemory).toBeInstanceOf(ProcessingError);
    expect(toFile).toBeInstanceOf(ProcessingError);
    expect((toFile as ProcessingError).code).toBe((inMemory as ProcessingError).code);
    return inMemory as ProcessingError;
  }

  it('asks for the codings it decodes', async () => {
    await sut.fetchDocument(`${base}/plain.pdf`, LIMIT);
    expect(acceptEncodings.at(-1)).toBe('gzip, deflate, br, zstd');
  });

  it.each([
    '/gzip.pdf',
    '/x-gzip.pdf',
    '/deflate.pdf',
    '/raw-deflate.pdf',
    '/br.pdf',
    '/stacked.pdf',
    '/zstd.pdf',
    '/stacked-zstd.pdf',
    '/skippable-zstd.pdf',
    '/frames-zstd.pdf',
    '/identity.pdf',
    '/plain.pdf',
  ])('reads the document served at %s as it was before encoding', async (urlPath) => {
    const fetched = await sut.fetchDocument(`${base}${urlPath}`, LIMIT);
    expect(fetched.bytes.equals(pdf)).toBe(true);
    expect(fetched.contentType).toBe('application/pdf');

    const file = path.join(directory, urlPath.slice(1));
    const budget = { limit: LIMIT, remaining: LIMIT };
    await sut.fetchToFile(`${base}${urlPath}`, file, budget);
    expect((await fs.readFile(file)).equals(pdf)).toBe(true);
    expect(budget.remaining).toBe(LIMIT - pdf.length);
  });

  it('reads an empty body declared gzip as an empty document', async () => {
    const fetched = await sut.fetchDocument(`${base}/empty`, LIMIT);
    expect(fetched.bytes.length).toBe(0);
  });

  it.each(['/bomb.pdf', '/zstd-bomb.pdf'])(
    'stops the bomb at %s at the limit with the 413 an oversize plain body gets',
    async (urlPath) => {
      const started = Date.now();
      const error = await failureOf(urlPath);
      expect([error.status, error.code]).toEqual([413, 'INPUT_TOO_LARGE']);
      expect(error.message).toContain('MAX_UPLOAD_BYTES');
      // Decoding stopped near the limit: 64 MB decoded would take far longer on a loaded machine.
      expect(Date.now() - started).toBeLessThan(10_000);
    },
  );

  it('refuses a coding it does not decode with a 400 naming it', async () => {
    const error = await failureOf('/compress.pdf');
    expect([error.status, error.code]).toEqual([400, 'INPUT_ENCODING_UNSUPPORTED']);
    expect(error.message).toContain('Content-Encoding "compress"');
    expect(error.message).toContain('gzip, x-gzip, deflate, br, zstd');
  });

  it('refuses zstd skippable frames holding more than 1 MiB, with a 400 saying so', async () => {
    const error = await failureOf('/padded-zstd.pdf');
    expect([error.status, error.code]).toEqual([400, 'INPUT_ENCODING_UNSUPPORTED']);
    expect(error.message).toContain('skippable frames hold more than 1048576 bytes');
  });

  it('refuses a zstd frame whose window is over the 8 MiB the coding allows, with a 400 saying so', async () => {
    const error = await failureOf('/wide-zstd.pdf');
    expect([error.status, error.code]).toEqual([400, 'INPUT_ENCODING_UNSUPPORTED']);
    expect(error.message).toContain('window is larger than 8 MiB');
  });

  it('refuses more codings stacked than it decodes', async () => {
    const error = await failureOf('/too-many.pdf');
    expect([error.status, error.code]).toEqual([400, 'INPUT_ENCODING_UNSUPPORTED']);
    expect(error.message).toContain('5 content codings stacked');
  });

  it.each([
    ['/corrupt.pdf', 'gzip'],
    ['/truncated.pdf', 'gzip'],
    ['/wrong-coding.pdf', 'br'],
    ['/truncated-zstd.pdf', 'zstd'],
    ['/zstd-without-checksum.pdf', 'zstd'],
    ['/not-zstd.pdf', 'zstd'],
  ])('refuses %s, whose body does not decode as declared, with a 400', async (urlPath, coding) => {
    const error = await failureOf(urlPath);
    expect([error.status, error.code]).toEqual([400, 'INPUT_ENCODING_CORRUPT']);
    expect(error.message).toContain(`does not decode as its Content-Encoding ${coding} says`);
  });

  it('answers a connection lost in the middle of an encoded body as interrupted, not corrupt', async () => {
    const error = await failureOf('/reset.pdf');
    expect([error.status, error.code]).toEqual([502, 'INPUT_FETCH_INTERRUPTED']);
  });

  it('ends an encoded body trickled past the time limit with 504 naming FETCH_TIMEOUT_MS', async () => {
    const impatient = new SafeFetcher(
      loadConfig({ FETCH_ALLOW_HOSTS: '127.0.0.1', FETCH_TIMEOUT_MS: '700' }),
    );
    try {
      const started = Date.now();
      const error = await impatient.fetchDocument(`${base}/trickle.pdf`, LIMIT).then(
        () => null,
        (e: unknown) => e as ProcessingError,
      );
      expect([error?.status, error?.code]).toEqual([504, 'INPUT_FETCH_TIMEOUT']);
      expect(error?.message).toContain('700 ms (FETCH_TIMEOUT_MS)');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await impatient.beforeApplicationShutdown();
    }
  });
});
