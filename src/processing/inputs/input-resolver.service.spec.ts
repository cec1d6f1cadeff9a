import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { RequestValidationError } from '../../common/validation-error.js';
import { loadConfig } from '../../config/app-config.js';
import { ProcessingError } from '../core/processing-error.js';
import type { UploadService } from '../upload/upload.service.js';
import type { UploadRecord } from '../upload/uploads.repository.js';
import { InputDocuments } from './input-documents.js';
import { InputResolver } from './input-resolver.service.js';
import type { ParsedInputs } from './parsed-inputs.js';
import type { SafeFetcher } from './safe-fetcher.js';
import { StagedInputs } from './staged-inputs.js';

const MAX = 100;
/** A DATA_DIR whose blobs/ holds upload `a.txt` (30 bytes), read by InputDocuments. */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'input-resolver-'));
fs.mkdirSync(path.join(dataDir, 'blobs'));
fs.writeFileSync(path.join(dataDir, 'blobs', 'a.txt'), Buffer.alloc(30));
/** Parse job `p-1` of org-1: its result file and the lines it read. */
fs.mkdirSync(path.join(dataDir, 'blobs', 'results'));
const parsedLayout = { fileType: 'txt', totalPages: 1, pages: [] };
fs.writeFileSync(path.join(dataDir, 'blobs', 'results', 'p-1.json'), '{}');
fs.writeFileSync(
  path.join(dataDir, 'blobs', 'results', 'p-1.parsed.json'),
  JSON.stringify(parsedLayout),
);
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Uploads of org-1: `docproc://a.txt` (30 bytes). URLs serve `sizes[url]` bytes. */
function resolver(sizes: Record<string, number> = {}) {
  const upload: UploadRecord = {
    fileId: 'a.txt',
    orgId: 'org-1',
    extension: 'txt',
    status: 'complete',
    sizeBytes: 30,
    expiresAt: null,
  };
  const uploads = {
    ownedUpload: jest.fn((orgId: string, url: string) =>
      url === 'docproc://a.txt' && orgId === 'org-1'
        ? Promise.resolve(upload)
        : Promise.reject(new ProcessingError('FILE_NOT_FOUND', `No uploaded file ${url}`, 404)),
    ),
  };
  const fetcher = {
    assertAllowedUrl: jest.fn((url: URL) => {
      if (url.hostname === '10.0.0.1') throw new ProcessingError('URL_NOT_ALLOWED', 'private', 400);
    }),
    fetchDocument: jest.fn((url: string, maxBytes: number) => {
      const size = sizes[url] ?? 1;
      if (size > maxBytes)
        return Promise.reject(new ProcessingError('INPUT_TOO_LARGE', 'too large', 413));
      return Promise.resolve({
        bytes: Buffer.alloc(size),
        finalUrl: `${url}`,
        contentType: 'text/plain',
      });
    }),
  };
  const parsed = {
    source: jest.fn((orgId: string, url: string) =>
      url === 'jobid://p-1' && orgId === 'org-1'
        ? Promise.resolve({ parsed: 'results/p-1.json', fileName: url })
        : Promise.reject(new ProcessingError('JOB_NOT_FOUND', `No job ${url}`, 404)),
    ),
  };
  const config = loadConfig({
    MAX_UPLOAD_BYTES: String(MAX),
    DATA_DIR: dataDir,
    MAX_INPUTS_PER_REQUEST: '3',
  });
  const staged = new StagedInputs(config);
  const sut = new InputResolver(
    config,
    uploads as unknown as UploadService,
    fetcher as unknown as SafeFetcher,
    new InputDocuments(config, fetcher as unknown as SafeFetcher, staged),
    staged,
    parsed as unknown as ParsedInputs,
  );
  return { sut, uploads, fetcher };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: ProcessingError) => [e.status, e.code],
  );

describe(InputResolver.name, () => {
  it('resolves uploads and URLs in order, naming a URL input after its last path segment', async () => {
    const { sut } = resolver({ 'https://files.example.com/dir/My%20Scan.pdf': 5 });
    const docs = await sut.resolve('org-1', [
      'https://files.example.com/dir/My%20Scan.pdf',
      'docproc://a.txt',
    ]);
    expect(docs.map((d) => [d.fileName, d.bytes.length, d.contentType])).toEqual([
      ['My Scan.pdf', 5, 'text/plain'],
      ['a.txt', 30, null],
    ]);
  });

  it('reads a jobid:// input as the lines its parse job kept, fetching nothing', async () => {
    const { sut, fetcher } = resolver();
    const docs = await sut.resolve('org-1', 'jobid://p-1');
    expect(docs.map((d) => [d.fileName, d.bytes.length, d.parsed?.layout])).toEqual([
      ['jobid://p-1', 0, parsedLayout],
    ]);
    expect(fetcher.fetchDocument).not.toHaveBeenCalled();
  });

  it("refuses another organization's job id as 404 and a jobid:// input in a list as 422", async () => {
    const { sut } = resolver();
    expect(await failure(sut.precheck('org-2', 'jobid://p-1'))).toEqual([404, 'JOB_NOT_FOUND']);
    await expect(sut.precheck('org-1', ['jobid://p-1', 'docproc://a.txt'])).rejects.toBeInstanceOf(
      RequestValidationError,
    );
  });

  it('accepts an UploadResponse object as its file_id', async () => {
    const { sut } = resolver();
    const docs = await sut.resolve('org-1', { file_id: 'docproc://a.txt', presigned_url: null });
    expect(docs.map((d) => d.fileName)).toEqual(['a.txt']);
  });

  it('gives every fetch what is left of one MAX_UPLOAD_BYTES budget for all inputs', async () => {
    const { sut, fetcher } = resolver({ 'https://x.example/1': 50 });
    await sut.resolve('org-1', ['docproc://a.txt', 'https://x.example/1', 'https://x.example/2']);
    expect(fetcher.fetchDocument.mock.calls.map((c) => c[1])).toEqual([MAX - 30, MAX - 30 - 50]);
  });

  it('answers 413 once the inputs before it used the whole budget, without fetching', async () => {
    const { sut, fetcher } = resolver({ 'https://x.example/1': 70 });
    expect(
      await failure(
        sut.resolve('org-1', ['docproc://a.txt', 'https://x.example/1', 'https://x.example/2']),
      ),
    ).toEqual([413, 'INPUT_TOO_LARGE']);
    expect(fetcher.fetchDocument).toHaveBeenCalledTimes(1);
  });

  it('reads the URL inputs a job downloaded from their files, fetching none', async () => {
    const { sut, fetcher } = resolver();
    const staged = new StagedInputs(loadConfig({ DATA_DIR: dataDir }));
    await staged.prepare('job-1');
    fs.writeFileSync(staged.fileOf('job-1', 1), 'downloaded');
    await staged.complete('job-1', { 1: 'report.txt' });
    const input = ['docproc://a.txt', 'https://x.example/report.txt'];
    const docs = await sut.resolve('org-1', input, 'job-1');
    expect(docs.map((d) => [d.fileName, d.bytes.toString()])).toEqual([
      ['a.txt', '\0'.repeat(30)],
      ['report.txt', 'downloaded'],
    ]);
    expect(fetcher.fetchDocument).not.toHaveBeenCalled();
    // Without a complete download (no manifest) the URL is a URL again.
    await staged.remove('job-1');
    await sut.resolve('org-1', input, 'job-1');
    expect(fetcher.fetchDocument).toHaveBeenCalledTimes(1);
  });

  it('refuses more inputs than MAX_INPUTS_PER_REQUEST with a 422 naming the field', async () => {
    const { sut, fetcher } = resolver();
    const error = await sut
      .precheck('org-1', [
        'https://x.example/1',
        'https://x.example/2',
        'https://x.example/3',
        'https://x.example/4',
      ])
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).detail).toEqual([
      expect.objectContaining({
        loc: ['body', 'input'],
        type: 'too_long',
        ctx: { field_type: 'List', max_length: 3, actual_length: 4 },
      }),
    ]);
    expect((error as RequestValidationError).detail[0].msg).toContain('MAX_INPUTS_PER_REQUEST');
    expect(fetcher.assertAllowedUrl).not.toHaveBeenCalled();
  });

  it("answers 404 for another org's upload when the request is accepted, the one ownership check", async () => {
    const { sut, uploads } = resolver();
    expect(await failure(sut.precheck('org-2', 'docproc://a.txt'))).toEqual([
      404,
      'FILE_NOT_FOUND',
    ]);
    uploads.ownedUpload.mockClear();
    // An accepted job's upload is read from its blob without being looked up again.
    const docs = await sut.resolve('org-1', 'docproc://a.txt');
    expect(docs.map((d) => d.bytes.length)).toEqual([30]);
    expect(uploads.ownedUpload).not.toHaveBeenCalled();
    // An upload whose blob is gone by the time its job runs is still a 404.
    expect(await failure(sut.resolve('org-1', 'docproc://gone.txt'))).toEqual([
      404,
      'FILE_NOT_FOUND',
    ]);
  });

  it('prechecks ownership and the address of every input without fetching any', async () => {
    const { sut, fetcher } = resolver();
    await sut.precheck('org-1', ['docproc://a.txt', 'https://x.example/1']);
    expect(fetcher.assertAllowedUrl).toHaveBeenCalledTimes(1);
    expect(
      await failure(sut.precheck('org-1', ['https://x.example/1', 'http://10.0.0.1/a'])),
    ).toEqual([400, 'URL_NOT_ALLOWED']);
    expect(await failure(sut.precheck('org-2', ['docproc://a.txt']))).toEqual([
      404,
      'FILE_NOT_FOUND',
    ]);
    expect(fetcher.fetchDocument).not.toHaveBeenCalled();
  });
});
