import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { ApiError } from '../../common/api-error.js';
import { MetricsService } from '../../common/metrics/metrics.service.js';
import { StorageReserve, statfsFreeBytes } from '../../database/storage-reserve.js';
import { loadConfig } from '../../config/app-config.js';
import { ProcessingError } from '../core/processing-error.js';
import type { ProcessingSecretsRepository } from './processing-secrets.repository.js';
import { FileBlobStore, blobRootOf } from '../../database/blob-store.js';
import { StorageQuota } from './storage-quota.js';
import { FILE_SCHEME, UploadService } from './upload.service.js';
import type { UploadRecord, UploadsRepository } from './uploads.repository.js';
import { UrlSigner } from './url-signer.service.js';

/** The uploads table, in memory. */
class MemoryUploads {
  readonly rows = new Map<string, UploadRecord>();
  insert(fileId: string, orgId: string, extension: string, size: number | null, exp: Date | null) {
    this.rows.set(fileId, {
      fileId,
      orgId,
      extension,
      status: size === null ? 'pending' : 'complete',
      sizeBytes: size,
      expiresAt: exp,
    });
    return Promise.resolve();
  }
  markComplete(fileId: string, sizeBytes: number) {
    Object.assign(this.rows.get(fileId)!, { status: 'complete', sizeBytes });
    return Promise.resolve();
  }
  find(fileId: string) {
    return Promise.resolve(this.rows.get(fileId) ?? null);
  }
  claimPending(fileId: string) {
    const row = this.rows.get(fileId);
    if (row?.status !== 'pending') return Promise.resolve(false);
    row.status = 'receiving';
    return Promise.resolve(true);
  }
  releaseClaim(fileId: string) {
    const row = this.rows.get(fileId);
    if (row?.status === 'receiving') row.status = 'pending';
    return Promise.resolve();
  }
  storedBytes(orgId: string) {
    let bytes = 0;
    for (const row of this.rows.values())
      if (row.orgId === orgId && row.status === 'complete') bytes += row.sizeBytes ?? 0;
    return Promise.resolve(bytes);
  }
}

async function* chunks(...parts: string[]): AsyncGenerator<Buffer> {
  for (const part of parts) yield Buffer.from(part);
}

const code = (error: unknown) => (error as ApiError | ProcessingError).code;
const status = (error: unknown) =>
  error instanceof ApiError ? error.getStatus() : (error as ProcessingError).status;

describe(UploadService.name, () => {
  let dataDir: string;
  let uploads: MemoryUploads;
  let sut: UploadService;

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-upload-'));
    uploads = new MemoryUploads();
    const signer = new UrlSigner({
      getOrCreate: () => Promise.resolve('a'.repeat(43)),
    } as unknown as ProcessingSecretsRepository);
    await signer.onModuleInit();
    const config = loadConfig({
      DATA_DIR: dataDir,
      MAX_UPLOAD_BYTES: '10',
      ORG_STORAGE_QUOTA_BYTES: '25',
      PRESIGN_TTL_SECONDS: '60',
      PUBLIC_BASE_URL: 'https://docs.example.com',
    });
    const repository = uploads as unknown as UploadsRepository;
    sut = new UploadService(
      config,
      repository,
      signer,
      new FileBlobStore(blobRootOf(dataDir)),
      new StorageQuota(config, repository),
      new StorageReserve(config, new MetricsService(), statfsFreeBytes),
    );
  });
  afterEach(() => {
    jest.useRealTimers();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const blobs = () => fs.readdirSync(path.join(dataDir, 'blobs'));

  async function* failingAfter(bytes: string): AsyncGenerator<Buffer> {
    yield Buffer.from(bytes);
    throw new Error('client went away');
  }

  describe('normalizeExtension', () => {
    it('takes the given extension, else the file name, lower-cased and without its dot', () => {
      expect(sut.normalizeExtension('.PDF')).toBe('pdf');
      expect(sut.normalizeExtension(undefined, 'Scan.Tiff')).toBe('tiff');
      expect(sut.normalizeExtension('docx', 'scan.pdf')).toBe('docx');
    });

    it('falls back to bin when nothing names one', () => {
      expect(sut.normalizeExtension(undefined)).toBe('bin');
      expect(sut.normalizeExtension(undefined, 'README')).toBe('bin');
    });

    it.each(['scan.pdf~', 'photo.😀', 'invoice.PDF_', `data.${'x'.repeat(17)}`])(
      'takes a file name %j whose suffix is no extension as naming none (bin), not as a 400',
      (fileName) => {
        expect(sut.normalizeExtension(undefined, fileName)).toBe('bin');
      },
    );

    it.each(['p df', '../pdf', 'a'.repeat(17), 'pdf!'])('refuses %j with 400', (raw) => {
      let error: unknown = null;
      try {
        sut.normalizeExtension(raw);
      } catch (e) {
        error = e;
      }
      expect([status(error), code(error)]).toEqual([400, 'INVALID_EXTENSION']);
    });
  });

  it('stores an upload of the org under a docproc:// id, with its size', async () => {
    const res = await sut.storeUpload('org-1', 'txt', chunks('hello', ' you'));
    expect(res).toEqual({
      file_id: expect.stringMatching(/^docproc:\/\/.+\.txt$/),
      presigned_url: null,
    });
    const record = await sut.ownedUpload('org-1', res.file_id);
    expect(record).toMatchObject({ orgId: 'org-1', status: 'complete', sizeBytes: 9 });
    expect((await sut.read(record)).toString()).toBe('hello you');
  });

  it('refuses an upload past MAX_UPLOAD_BYTES with 413 and leaves neither blob nor row', async () => {
    const error = await sut
      .storeUpload('org-1', 'txt', chunks('12345', '67890', '1'))
      .catch((e: unknown) => e);
    expect([status(error), code(error)]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(blobs()).toEqual([]);
    expect(uploads.rows.size).toBe(0);
  });

  it('leaves neither blob nor row when the client goes away midway', async () => {
    await expect(sut.storeUpload('org-1', 'txt', failingAfter('12345'))).rejects.toThrow(
      'client went away',
    );
    expect(blobs()).toEqual([]);
    expect(uploads.rows.size).toBe(0);
  });

  it("refuses an upload past the org's storage quota with 413 naming it, other orgs unaffected", async () => {
    await sut.storeUpload('org-1', 'txt', chunks('1234567890'));
    await sut.storeUpload('org-1', 'txt', chunks('1234567890'));
    const error = await sut
      .storeUpload('org-1', 'txt', chunks('12345', '6'))
      .catch((e: unknown) => e);
    expect([status(error), code(error)]).toEqual([413, 'STORAGE_QUOTA_EXCEEDED']);
    expect(JSON.stringify((error as ApiError).getResponse())).toContain('ORG_STORAGE_QUOTA_BYTES');
    expect(blobs()).toHaveLength(2);
    await sut.storeUpload('org-1', 'txt', chunks('12345'));
    await sut.storeUpload('org-2', 'txt', chunks('1234567890'));
  });

  it('accepts an upload of exactly MAX_UPLOAD_BYTES', async () => {
    const res = await sut.storeUpload('org-1', 'txt', chunks('12345', '67890'));
    expect((await sut.ownedUpload('org-1', res.file_id)).sizeBytes).toBe(10);
  });

  describe('presigned uploads', () => {
    async function presign() {
      const res = await sut.createPresigned('org-1', 'pdf');
      const url = new URL(res.presigned_url!);
      const fileId = res.file_id.slice(FILE_SCHEME.length);
      return {
        res,
        fileId,
        expires: url.searchParams.get('expires'),
        signature: url.searchParams.get('signature'),
        url,
      };
    }

    it('hands out a URL on PUBLIC_BASE_URL; the file is pending (409) until its PUT', async () => {
      const { res, fileId, expires, signature, url } = await presign();
      expect(`${url.origin}${url.pathname}`).toBe(`https://docs.example.com/upload/${fileId}`);
      const pending = await sut.ownedUpload('org-1', res.file_id).catch((e: unknown) => e);
      expect([status(pending), code(pending)]).toEqual([409, 'FILE_NOT_UPLOADED']);
      await sut.receivePresigned(fileId, expires, signature, chunks('%PDF'));
      expect(await sut.ownedUpload('org-1', res.file_id)).toMatchObject({
        status: 'complete',
        sizeBytes: 4,
      });
    });

    it('refuses a PUT with a signature of another file or past PRESIGN_TTL_SECONDS (403)', async () => {
      jest.useFakeTimers({ now: new Date('2026-03-01T12:00:00Z') });
      const first = await presign();
      const second = await presign();
      const swapped = await sut
        .receivePresigned(second.fileId, first.expires, first.signature, chunks('x'))
        .catch((e: unknown) => e);
      expect([status(swapped), code(swapped)]).toEqual([403, 'INVALID_SIGNATURE']);
      jest.advanceTimersByTime(61_000);
      const late = await sut
        .receivePresigned(first.fileId, first.expires, first.signature, chunks('x'))
        .catch((e: unknown) => e);
      expect([status(late), code(late)]).toEqual([403, 'INVALID_SIGNATURE']);
      expect((await uploads.find(first.fileId))!.status).toBe('pending');
    });

    it('is single-use: a second PUT to a used URL is refused with 409 and keeps the file', async () => {
      const { res, fileId, expires, signature } = await presign();
      await sut.receivePresigned(fileId, expires, signature, chunks('%PDF-1'));
      const again = await sut
        .receivePresigned(fileId, expires, signature, chunks('other'))
        .catch((e: unknown) => e);
      expect([status(again), code(again)]).toEqual([409, 'UPLOAD_URL_USED']);
      const record = await sut.ownedUpload('org-1', res.file_id);
      expect((await sut.read(record)).toString()).toBe('%PDF-1');
    });

    it('gives the URL back when its PUT fails, leaving no bytes', async () => {
      const { fileId, expires, signature } = await presign();
      const tooLarge = await sut
        .receivePresigned(fileId, expires, signature, chunks('12345', '678901'))
        .catch((e: unknown) => e);
      expect(code(tooLarge)).toBe('PAYLOAD_TOO_LARGE');
      expect(blobs()).toEqual([]);
      expect((await uploads.find(fileId))!.status).toBe('pending');
      await sut.receivePresigned(fileId, expires, signature, chunks('%PDF'));
      expect((await uploads.find(fileId))!.status).toBe('complete');
    });
  });

  describe('ownedUpload', () => {
    it('answers 404 for another org\u2019s file, leaking nothing about it', async () => {
      const { file_id } = await sut.storeUpload('org-1', 'txt', chunks('secret'));
      const other = await sut.ownedUpload('org-2', file_id).catch((e: unknown) => e);
      const unknown = await sut
        .ownedUpload('org-2', `${FILE_SCHEME}nope.txt`)
        .catch((e: unknown) => e);
      expect([status(other), code(other)]).toEqual([404, 'FILE_NOT_FOUND']);
      expect((other as Error).message).toBe(`No uploaded file ${file_id}`);
      expect([status(unknown), code(unknown)]).toEqual([404, 'FILE_NOT_FOUND']);
    });

    it('answers 404 for a URL that is not a docproc:// id', async () => {
      const { file_id } = await sut.storeUpload('org-1', 'txt', chunks('x'));
      const bare = file_id.slice(FILE_SCHEME.length);
      const error = await sut.ownedUpload('org-1', bare).catch((e: unknown) => e);
      expect([status(error), code(error)]).toEqual([404, 'FILE_NOT_FOUND']);
    });
  });
});
