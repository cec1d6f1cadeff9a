import { randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { BlobStore } from '../../database/blob-store.js';
import { StorageReserve } from '../../database/storage-reserve.js';
import { ProcessingError } from '../core/processing-error.js';
import { StorageQuota } from './storage-quota.js';
import { UploadRecord, UploadsRepository } from './uploads.repository.js';
import { UrlSigner } from './url-signer.service.js';

export const FILE_SCHEME = 'docproc://';

/**
 * The blob of an accepted `docproc://` input: blob file names are the upload's file id
 * (UploadService keeps them under blobs/); reading a blob that is gone answers 404.
 */
export function uploadSourceOf(url: string): { blob: string; fileName: string } {
  const fileId = url.slice(FILE_SCHEME.length);
  return { blob: path.posix.basename(fileId), fileName: fileId };
}
const UPLOAD_PURPOSE = 'upload';
/** How often presigned uploads never sent and uploads past retention are looked for. */
const UPLOAD_SWEEP_MS = 60_000;
/**
 * Past the row's expiry before it goes: the URL's own expiry is taken a moment later, in
 * whole seconds, so the row never goes while its URL is still valid.
 */
const PRESIGN_EXPIRY_GRACE_SECONDS = 60;
const EXTENSION = /^[a-z0-9]{1,16}$/;
/** The longest `file_id` an upload is given: the scheme, a UUID, a dot and a 16-character extension. */
export const FILE_REFERENCE_MAX_CHARS = FILE_SCHEME.length + 36 + 1 + 16;
/** The `extension` query parameter as the description declares it: a leading dot, any case. */
export const EXTENSION_PARAMETER_PATTERN = '^\\.?[A-Za-z0-9]{0,16}$';

export interface UploadResponse {
  file_id: string;
  presigned_url: string | null;
}

export interface DeletedUpload {
  file_id: string;
  deleted: true;
}

export function tooLargeError(maxBytes: number): ApiError {
  return new ApiError(
    HttpStatus.PAYLOAD_TOO_LARGE,
    'PAYLOAD_TOO_LARGE',
    `Uploads are limited to ${maxBytes} bytes (MAX_UPLOAD_BYTES)`,
    { maxBytes },
  );
}

/** Counts bytes through a stream and fails it past the limit. */
async function* capped(source: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of source) {
    size += chunk.length;
    if (size > maxBytes) throw tooLargeError(maxBytes);
    yield chunk;
  }
}

/**
 * Uploaded files: bytes in the BlobStore (key = file id), ownership and state in DuckDB.
 * An upload is all or nothing: the bytes stream to a temporary file that becomes the
 * upload only once complete and within both limits (MAX_UPLOAD_BYTES and the
 * organization's storage quota); a cut, oversize or refused upload leaves no bytes and
 * no complete row.
 */
@Injectable()
export class UploadService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(UploadService.name);
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly uploads: UploadsRepository,
    private readonly signer: UrlSigner,
    private readonly blobs: BlobStore,
    private readonly quota: StorageQuota,
    private readonly storage: StorageReserve,
  ) {}

  /**
   * Once a minute: presigned uploads never sent (every `POST /upload` without a file added a
   * row that stayed for good) and uploads past `UPLOAD_RETENTION_SECONDS` (a client that never
   * deletes its uploads would otherwise keep its organization at its quota for good).
   */
  onApplicationBootstrap(): void {
    const sweep = async () => {
      await this.sweepExpiredPresigned();
      await this.sweepPastRetention();
    };
    void sweep();
    this.sweeper = setInterval(() => void sweep(), UPLOAD_SWEEP_MS);
    this.sweeper.unref();
  }

  /**
   * Deletes uploads stored longer than `UPLOAD_RETENTION_SECONDS`: the row first, then the
   * file (a file left by a crash in between is an orphan the start-up sweep removes).
   */
  async sweepPastRetention(): Promise<number> {
    const seconds = this.config.processing.uploadRetentionSeconds;
    if (seconds === 0) return 0;
    try {
      const fileIds = await this.uploads.removeUploadedBefore(seconds);
      if (fileIds.length === 0) return 0;
      await this.blobs.delete(
        fileIds.map((fileId) => uploadSourceOf(`${FILE_SCHEME}${fileId}`).blob),
      );
      this.logger.log(`deleted ${fileIds.length} upload(s) past UPLOAD_RETENTION_SECONDS`);
      return fileIds.length;
    } catch (error) {
      this.logger.warn(`upload retention sweep failed: ${String(error)}`);
      return 0;
    }
  }

  onModuleDestroy(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }

  /** Removes presigned uploads whose URL expired unused; the number removed. */
  async sweepExpiredPresigned(): Promise<number> {
    try {
      const removed = await this.uploads.removeExpiredPending(PRESIGN_EXPIRY_GRACE_SECONDS);
      if (removed > 0) this.logger.log(`removed ${removed} presigned upload(s) never sent`);
      return removed;
    } catch (error) {
      this.logger.warn(`presigned upload sweep failed: ${String(error)}`);
      return 0;
    }
  }

  get maxUploadBytes(): number {
    return this.config.processing.maxUploadBytes;
  }

  /**
   * The `extension` asked for (400 when it is not 1-16 letters or digits), else the file
   * name's when it is one, else `bin`. A file name is whatever the client's disk holds
   * (`scan.pdf~`, `photo.😀`): it names no extension rather than failing the upload, and
   * the document's type is read from its bytes either way.
   */
  normalizeExtension(raw: string | undefined, fileName?: string): string {
    if (raw === undefined) {
      const fromName = path
        .extname(fileName ?? '')
        .slice(1)
        .toLowerCase();
      return EXTENSION.test(fromName) ? fromName : 'bin';
    }
    const candidate = raw.replace(/^\./, '').toLowerCase();
    if (candidate === '') return 'bin';
    if (!EXTENSION.test(candidate)) {
      throw ApiError.badRequest('INVALID_EXTENSION', 'extension must be 1-16 letters or digits');
    }
    return candidate;
  }

  /** Streams the bytes into the store under `fileId`; nothing stays when it fails. */
  private async write(orgId: string, fileId: string, source: AsyncIterable<Buffer>) {
    this.storage.assertRoom();
    return this.quota.holding(orgId, async (counted) => {
      const stored = await this.blobs.write(
        fileId,
        counted(capped(source, this.config.processing.maxUploadBytes)),
      );
      if (stored.bytes === 0) {
        // Refused now rather than as a file id every later request fails on.
        await this.blobs.delete([fileId]);
        throw ApiError.badRequest('EMPTY_UPLOAD', 'The uploaded file is empty (0 bytes)');
      }
      return stored.bytes;
    });
  }

  async storeUpload(
    orgId: string,
    extension: string,
    source: AsyncIterable<Buffer>,
  ): Promise<UploadResponse> {
    const fileId = `${randomUUID()}.${extension}`;
    const size = await this.write(orgId, fileId, source);
    try {
      await this.uploads.insert(fileId, orgId, extension, size, null);
    } catch (error) {
      await this.blobs.delete([fileId]);
      throw error;
    }
    return { file_id: `${FILE_SCHEME}${fileId}`, presigned_url: null };
  }

  /**
   * Takes back an upload its request refused after the file was stored (a part after the
   * file broke the body's rules): the client got no file id, so nothing may stay counted
   * against its organization.
   */
  async discardUpload(upload: UploadResponse): Promise<void> {
    const { blob } = uploadSourceOf(upload.file_id);
    await this.uploads.remove(blob);
    await this.blobs.delete([blob]);
  }

  /**
   * `DELETE /upload/{file_id}`: the organization's upload goes, bytes and row, and stops
   * counting against its storage quota; jobs already run keep their results, a job still
   * waiting for it fails with 404 `FILE_NOT_FOUND`. A presigned upload not sent yet goes
   * too (its URL then answers 404). Refused with 409 while a PUT streams the bytes.
   */
  async deleteUpload(orgId: string, reference: string): Promise<DeletedUpload> {
    const fileId = reference.startsWith(FILE_SCHEME)
      ? reference.slice(FILE_SCHEME.length)
      : reference;
    const removed = await this.uploads.removeOwned(fileId, orgId);
    if (removed === null) {
      const record = await this.uploads.find(fileId);
      if (record?.orgId === orgId && record.status === 'receiving') {
        throw new ApiError(
          HttpStatus.CONFLICT,
          'UPLOAD_IN_PROGRESS',
          `The bytes of ${FILE_SCHEME}${fileId} are being uploaded; delete it once the PUT ended`,
        );
      }
      throw ApiError.notFound('FILE_NOT_FOUND', `No uploaded file ${FILE_SCHEME}${fileId}`);
    }
    if (removed === 'complete') {
      await this.blobs.delete([uploadSourceOf(`${FILE_SCHEME}${fileId}`).blob]);
    }
    return { file_id: `${FILE_SCHEME}${fileId}`, deleted: true };
  }

  async createPresigned(orgId: string, extension: string): Promise<UploadResponse> {
    const fileId = `${randomUUID()}.${extension}`;
    const ttl = this.config.processing.presignTtlSeconds;
    await this.uploads.insert(fileId, orgId, extension, null, new Date(Date.now() + ttl * 1000));
    const query = this.signer.sign(UPLOAD_PURPOSE, fileId, ttl);
    return {
      file_id: `${FILE_SCHEME}${fileId}`,
      presigned_url: `${this.config.publicBaseUrl}/upload/${encodeURIComponent(fileId)}?${query}`,
    };
  }

  /**
   * The PUT of a presigned upload. The URL is single-use: the upload is claimed before the
   * bytes are read, so a second PUT (at the same time, or after the first completed) is
   * refused with 409 and never replaces the file jobs may already read. A PUT that fails
   * gives the claim back, so the client can send the bytes again with the same URL.
   */
  async receivePresigned(
    fileId: string,
    expires: unknown,
    signature: unknown,
    source: AsyncIterable<Buffer>,
  ): Promise<void> {
    if (!this.signer.verify(UPLOAD_PURPOSE, fileId, expires, signature)) {
      throw ApiError.forbidden('INVALID_SIGNATURE', 'The upload URL is invalid or has expired');
    }
    const record = await this.uploads.find(fileId);
    if (!record) throw ApiError.notFound('FILE_NOT_FOUND', 'Unknown upload');
    if (!(await this.uploads.claimPending(fileId))) {
      throw new ApiError(
        HttpStatus.CONFLICT,
        'UPLOAD_URL_USED',
        'This presigned upload URL has already been used; request a new one with POST /upload',
      );
    }
    try {
      const size = await this.write(record.orgId, fileId, source);
      await this.uploads.markComplete(fileId, size);
    } catch (error) {
      await this.uploads.releaseClaim(fileId);
      throw error;
    }
  }

  /** The upload behind a `docproc://` URL, if it belongs to `orgId` (404 otherwise, leaking nothing). */
  async ownedUpload(orgId: string, url: string): Promise<UploadRecord> {
    const fileId = url.startsWith(FILE_SCHEME) ? url.slice(FILE_SCHEME.length) : '';
    const record = fileId ? await this.uploads.find(fileId) : null;
    if (!record || record.orgId !== orgId) {
      throw new ProcessingError('FILE_NOT_FOUND', `No uploaded file ${url}`, 404);
    }
    if (record.status !== 'complete') {
      throw new ProcessingError(
        'FILE_NOT_UPLOADED',
        `The bytes of ${url} have not been uploaded yet`,
        409,
      );
    }
    return record;
  }

  async read(record: UploadRecord): Promise<Buffer> {
    return this.blobs.read(record.fileId);
  }
}
