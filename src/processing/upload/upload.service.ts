import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { ProcessingError } from '../jobs/job.types.js';
import { UploadRecord, UploadsRepository } from './uploads.repository.js';
import { UrlSigner } from './url-signer.service.js';

export const FILE_SCHEME = 'docproc://';
const UPLOAD_PURPOSE = 'upload';
const EXTENSION = /^[a-z0-9]{1,16}$/;

export interface UploadResponse {
  file_id: string;
  presigned_url: string | null;
}

export function tooLargeError(maxBytes: number): ApiError {
  return new ApiError(
    HttpStatus.PAYLOAD_TOO_LARGE,
    'PAYLOAD_TOO_LARGE',
    `Uploads are limited to ${maxBytes} bytes`,
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

/** Uploaded files: bytes under DATA_DIR/blobs, ownership and state in DuckDB. */
@Injectable()
export class UploadService {
  private readonly blobDir: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly uploads: UploadsRepository,
    private readonly signer: UrlSigner,
  ) {
    this.blobDir = path.join(config.dataDir, 'blobs');
  }

  get maxUploadBytes(): number {
    return this.config.processing.maxUploadBytes;
  }

  normalizeExtension(raw: string | undefined, fileName?: string): string {
    const candidate = (raw ?? path.extname(fileName ?? '').slice(1) ?? '')
      .replace(/^\./, '')
      .toLowerCase();
    if (candidate === '') return 'bin';
    if (!EXTENSION.test(candidate)) {
      throw ApiError.badRequest('INVALID_EXTENSION', 'extension must be 1-16 letters or digits');
    }
    return candidate;
  }

  private blobPath(fileId: string): string {
    return path.join(this.blobDir, fileId);
  }

  /** Writes a stream to a temporary file, then renames it, so a cut upload leaves no blob. */
  private async write(fileId: string, source: AsyncIterable<Buffer>): Promise<number> {
    await fs.promises.mkdir(this.blobDir, { recursive: true });
    const tmp = `${this.blobPath(fileId)}.${randomUUID()}.part`;
    let size = 0;
    try {
      await pipeline(
        Readable.from(capped(source, this.config.processing.maxUploadBytes)),
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            size += chunk.length;
            yield chunk;
          }
        },
        fs.createWriteStream(tmp),
      );
      await fs.promises.rename(tmp, this.blobPath(fileId));
      return size;
    } catch (error) {
      await fs.promises.rm(tmp, { force: true });
      throw error;
    }
  }

  async storeUpload(
    orgId: string,
    extension: string,
    source: AsyncIterable<Buffer>,
  ): Promise<UploadResponse> {
    const fileId = `${randomUUID()}.${extension}`;
    const size = await this.write(fileId, source);
    await this.uploads.insert(fileId, orgId, extension, size, null);
    return { file_id: `${FILE_SCHEME}${fileId}`, presigned_url: null };
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

  /** The PUT of a presigned upload. */
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
    const size = await this.write(fileId, source);
    await this.uploads.markComplete(fileId, size);
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
    return fs.promises.readFile(this.blobPath(record.fileId));
  }
}
