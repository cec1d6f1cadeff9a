import path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import type { InputDocument } from '../classify-jobs/classification-runner.js';
import { ProcessingError } from '../jobs/job.types.js';
import { FILE_SCHEME, UploadService } from '../upload/upload.service.js';
import { SafeFetcher } from './safe-fetcher.js';

/** The `input` field as validated: a URL, a list of URLs, or an UploadResponse object. */
export type ClassifyInputValue =
  string | string[] | { file_id: string; presigned_url?: string | null };

/** The input's URLs, in order (an UploadResponse stands for its `file_id`). */
export function inputUrls(input: ClassifyInputValue): string[] {
  if (typeof input === 'string') return [input];
  if (Array.isArray(input)) return input;
  return [input.file_id];
}

/**
 * Turns inputs into bytes: `docproc://` files of the caller's organization, and public or
 * presigned URLs fetched through the SSRF-guarded fetcher, within one total size budget.
 */
@Injectable()
export class InputResolver {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly uploads: UploadService,
    private readonly fetcher: SafeFetcher,
  ) {}

  /** Checks at submission what can be checked without fetching: ownership, literal addresses. */
  async precheck(orgId: string, input: ClassifyInputValue): Promise<void> {
    for (const url of inputUrls(input)) {
      if (url.startsWith(FILE_SCHEME)) await this.uploads.ownedUpload(orgId, url);
      else this.fetcher.assertAllowedUrl(new URL(url));
    }
  }

  async resolve(orgId: string, input: ClassifyInputValue): Promise<InputDocument[]> {
    let budget = this.config.processing.maxUploadBytes;
    const documents: InputDocument[] = [];
    for (const url of inputUrls(input)) {
      if (url.startsWith(FILE_SCHEME)) {
        const record = await this.uploads.ownedUpload(orgId, url);
        const bytes = await this.uploads.read(record);
        documents.push({ bytes, fileName: record.fileId, contentType: null });
        budget -= bytes.length;
      } else {
        const fetched = await fetchInputDocument(this.fetcher, url, budget);
        documents.push(fetched);
        budget -= fetched.bytes.length;
      }
    }
    return documents;
  }
}

/**
 * A URL input fetched within what is left of the size budget, named after the last path
 * segment of the URL it ended at (API process and Redis workers alike).
 */
export async function fetchInputDocument(
  fetcher: SafeFetcher,
  url: string,
  budget: number,
): Promise<InputDocument> {
  if (budget <= 0)
    throw new ProcessingError('INPUT_TOO_LARGE', 'Inputs exceed the size limit', 413);
  const fetched = await fetcher.fetchDocument(url, budget);
  const name = path.posix.basename(new URL(fetched.finalUrl).pathname) || 'document';
  return { bytes: fetched.bytes, fileName: safeDecode(name), contentType: fetched.contentType };
}

function safeDecode(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
