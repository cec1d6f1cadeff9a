import { Inject, Injectable } from '@nestjs/common';
import { RequestValidationError } from '../../common/validation-error.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import type { InputDocument } from '../core/input-document.js';
import { FILE_SCHEME, UploadService, uploadSourceOf } from '../upload/upload.service.js';
import { InputDocuments } from './input-documents.js';
import { type InputSource } from '../core/input-document.js';
import { isJobReference, ParsedInputs } from './parsed-inputs.js';
import { SafeFetcher } from './safe-fetcher.js';
import { StagedInputs } from './staged-inputs.js';

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
 * (ownership checked once, here, when the request is accepted; bytes read from their blobs)
 * and public or presigned URLs
 * fetched through the SSRF-guarded fetcher, within one total size budget. `sources` is what
 * a Redis task carries, so a Redis worker reads the same sources with the same InputDocuments.
 */
@Injectable()
export class InputResolver {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly uploads: UploadService,
    private readonly fetcher: SafeFetcher,
    private readonly documents: InputDocuments,
    private readonly staged: StagedInputs,
    private readonly parsed: ParsedInputs,
  ) {}

  /**
   * Checks at submission what can be checked without fetching: the number of inputs (422
   * past MAX_INPUTS_PER_REQUEST), literal addresses, and that each upload is the caller's
   * organization's and uploaded (404 / 409 before any job exists). This is the one ownership
   * check of an upload: no job is stored without it, so the sources of a stored job name its
   * uploads' blobs without looking them up again.
   */
  async precheck(orgId: string, input: ClassifyInputValue): Promise<void> {
    const urls = inputUrls(input);
    const max = this.config.processing.maxInputsPerRequest;
    if (urls.length > max) {
      throw new RequestValidationError([
        {
          loc: ['body', 'input'],
          msg: `List should have at most ${max} items after validation, not ${urls.length} (MAX_INPUTS_PER_REQUEST)`,
          type: 'too_long',
          ctx: { field_type: 'List', max_length: max, actual_length: urls.length },
        },
      ]);
    }
    if (urls.length > 1 && urls.some(isJobReference)) {
      throw new RequestValidationError([
        {
          loc: ['body', 'input'],
          msg: 'A jobid:// input stands for a whole parsed document: give it alone, not in a list',
          type: 'value_error',
        },
      ]);
    }
    for (const url of urls) {
      if (isJobReference(url)) await this.parsed.source(orgId, url);
      else if (url.startsWith(FILE_SCHEME)) await this.uploads.ownedUpload(orgId, url);
      else this.fetcher.assertAllowedUrl(new URL(url));
    }
  }

  /**
   * The input of an accepted job (its uploads checked by `precheck`) as sources to read;
   * URL inputs the job `jobId` already downloaded (InputDownloads) are read from their files.
   */
  async sources(orgId: string, input: ClassifyInputValue, jobId?: string): Promise<InputSource[]> {
    const sources: InputSource[] = [];
    const downloaded = jobId ? await this.staged.names(jobId) : null;
    for (const [position, url] of inputUrls(input).entries()) {
      const name = downloaded?.[position];
      if (isJobReference(url)) {
        sources.push(await this.parsed.source(orgId, url));
      } else if (jobId && name !== undefined) {
        sources.push({ staged: this.staged.reference(jobId, position), fileName: name });
      } else if (url.startsWith(FILE_SCHEME)) {
        sources.push(uploadSourceOf(url));
      } else sources.push({ url });
    }
    return sources;
  }

  async resolve(
    orgId: string,
    input: ClassifyInputValue,
    jobId?: string,
  ): Promise<InputDocument[]> {
    return this.documents.read(await this.sources(orgId, input, jobId));
  }
}
