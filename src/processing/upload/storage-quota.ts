import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { UploadsRepository } from './uploads.repository.js';

function quotaExceededError(quotaBytes: number, storedBytes: number): ApiError {
  return new ApiError(
    HttpStatus.PAYLOAD_TOO_LARGE,
    'STORAGE_QUOTA_EXCEEDED',
    `The organization's storage quota of ${quotaBytes} bytes (ORG_STORAGE_QUOTA_BYTES) ` +
      `would be exceeded: ${storedBytes} bytes are stored; delete jobs or wait for their ` +
      'results to expire',
    { quotaBytes, storedBytes },
  );
}

/** Wraps an upload's byte stream, counting it against the organization's quota. */
type QuotaCounter = (source: AsyncIterable<Buffer>) => AsyncIterable<Buffer>;

/**
 * The per-organization stored-bytes quota (ORG_STORAGE_QUOTA_BYTES): what an organization
 * has stored (complete uploads, unexpired job results) plus the bytes of its uploads still
 * streaming in this process. An upload stops at the chunk that would pass it, so its
 * size need not be known in advance (chunked bodies).
 */
@Injectable()
export class StorageQuota {
  private readonly streaming = new Map<string, number>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly uploads: UploadsRepository,
  ) {}

  async holding<T>(orgId: string, work: (counted: QuotaCounter) => Promise<T>): Promise<T> {
    const quota = this.config.processing.orgStorageQuotaBytes;
    if (quota === 0) return work((source) => source);
    const stored = await this.uploads.storedBytes(orgId);
    if (stored >= quota) throw quotaExceededError(quota, stored);
    let counted = 0;
    const count = (bytes: number) => {
      counted += bytes;
      this.streaming.set(orgId, (this.streaming.get(orgId) ?? 0) + bytes);
    };
    const streaming = this.streaming;
    async function* counter(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      for await (const chunk of source) {
        count(chunk.length);
        if (stored + (streaming.get(orgId) ?? 0) > quota) throw quotaExceededError(quota, stored);
        yield chunk;
      }
    }
    try {
      return await work(counter);
    } finally {
      const left = (this.streaming.get(orgId) ?? 0) - counted;
      if (left > 0) this.streaming.set(orgId, left);
      else this.streaming.delete(orgId);
    }
  }
}
