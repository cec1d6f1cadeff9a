import path from 'node:path';
import { Injectable } from '@nestjs/common';
import type { InputDocument } from '../classify-jobs/classification-runner.js';
import { FILE_SCHEME, UploadService } from '../upload/upload.service.js';
import { InputDocuments, type InputSource } from './input-documents.js';
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
 * Turns a request's `input` into documents: `docproc://` files of the caller's organization
 * (ownership checked here, bytes read from their blobs) and public or presigned URLs
 * fetched through the SSRF-guarded fetcher, within one total size budget. `sources` is what
 * a Redis task carries, so a Redis worker reads the same sources with the same InputDocuments.
 */
@Injectable()
export class InputResolver {
  constructor(
    private readonly uploads: UploadService,
    private readonly fetcher: SafeFetcher,
    private readonly documents: InputDocuments,
  ) {}

  /** Checks at submission what can be checked without fetching: ownership, literal addresses. */
  async precheck(orgId: string, input: ClassifyInputValue): Promise<void> {
    for (const url of inputUrls(input)) {
      if (url.startsWith(FILE_SCHEME)) await this.uploads.ownedUpload(orgId, url);
      else this.fetcher.assertAllowedUrl(new URL(url));
    }
  }

  /** The input as sources to read, uploads checked to belong to `orgId`. */
  async sources(orgId: string, input: ClassifyInputValue): Promise<InputSource[]> {
    const sources: InputSource[] = [];
    for (const url of inputUrls(input)) {
      if (url.startsWith(FILE_SCHEME)) {
        const record = await this.uploads.ownedUpload(orgId, url);
        // Blob file names are the upload's file id (UploadService keeps them under blobs/).
        sources.push({ blob: path.posix.basename(record.fileId), fileName: record.fileId });
      } else sources.push({ url });
    }
    return sources;
  }

  async resolve(orgId: string, input: ClassifyInputValue): Promise<InputDocument[]> {
    return this.documents.read(await this.sources(orgId, input));
  }
}
