import path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { ProcessingError } from '../core/processing-error.js';
import { FILE_SCHEME } from '../upload/upload.service.js';
import { type ClassifyInputValue, inputUrls } from './input-resolver.service.js';
import { KeyedLimiter } from './keyed-limiter.js';
import { isJobReference } from './parsed-inputs.js';
import type { ByteBudget } from './safe-fetcher.js';
import { SafeFetcher } from './safe-fetcher.js';
import { StagedInputs, type StagedNames } from './staged-inputs.js';

/** The URL inputs of a request (not uploads, not jobid:// references), with their positions in its `input` list. */
export function urlInputs(input: ClassifyInputValue): { url: string; position: number }[] {
  return inputUrls(input)
    .map((url, position) => ({ url, position }))
    .filter(({ url }) => !url.startsWith(FILE_SCHEME) && !isJobReference(url));
}

/**
 * Downloads a job's URL inputs to StagedInputs before the job takes a cpu worker. Each
 * organization downloads at most FETCH_CONCURRENCY_PER_ORG inputs at once, in the order its
 * jobs arrived; another organization's downloads never wait for them. The inputs of one
 * request are downloaded side by side, within one size budget (MAX_UPLOAD_BYTES) and one
 * deadline (FETCH_DEADLINE_MS, from the first download's start).
 */
@Injectable()
export class InputDownloads {
  private readonly perOrg: KeyedLimiter;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly fetcher: SafeFetcher,
    private readonly staged: StagedInputs,
  ) {
    this.perOrg = new KeyedLimiter(config.processing.fetchConcurrencyPerOrg);
  }

  /** Downloads being made and waiting for `orgId` (metrics, tests). */
  load(orgId: string): { active: number; waiting: number } {
    return this.perOrg.load(orgId);
  }

  /** Downloads the inputs; `signal` ends them (cancellation, shutdown). */
  async download(
    jobId: string,
    orgId: string,
    input: ClassifyInputValue,
    signal: AbortSignal,
  ): Promise<void> {
    const { fetchDeadlineMs, maxUploadBytes } = this.config.processing;
    await this.staged.prepare(jobId);
    const names: StagedNames = {};
    const budget: ByteBudget = { limit: maxUploadBytes, remaining: maxUploadBytes };
    // One input failing ends the others; the deadline starts with the first download.
    const failed = new AbortController();
    let deadline: AbortSignal | undefined;
    const ended = () => AbortSignal.any([signal, failed.signal, ...(deadline ? [deadline] : [])]);
    const fetchOne = async ({ url, position }: { url: string; position: number }) => {
      const release = await this.perOrg.acquire(orgId, AbortSignal.any([signal, failed.signal]));
      try {
        deadline ??= AbortSignal.timeout(fetchDeadlineMs);
        const file = this.staged.fileOf(jobId, position);
        const fetched = await this.fetcher.fetchToFile(url, file, budget, ended());
        names[position] = fileNameOf(fetched.finalUrl, fetched.contentType);
      } finally {
        release();
      }
    };
    const downloads = urlInputs(input).map((entry) =>
      fetchOne(entry).catch((error: unknown) => {
        failed.abort(error);
        throw error;
      }),
    );
    const outcomes = await Promise.allSettled(downloads);
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failure) {
      await this.staged.remove(jobId);
      if (deadline?.aborted && !signal.aborted) {
        throw new ProcessingError(
          'INPUT_FETCH_TIMEOUT',
          `Downloading the inputs took longer than ${fetchDeadlineMs} ms (FETCH_DEADLINE_MS)`,
          504,
        );
      }
      signal.throwIfAborted();
      // The first failure, not the aborts it caused in the other downloads.
      throw failed.signal.reason ?? failure.reason;
    }
    await this.staged.complete(jobId, names);
  }
}

/**
 * Extensions of the content types whose documents carry no mark of their type: delimited
 * values read as plain text unless their name or type says otherwise, and a download keeps
 * only its name.
 */
const UNMARKED_TYPE_EXTENSIONS: Record<string, string> = {
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/tab-separated-values': 'tsv',
};

/**
 * A download's name: the last path segment of the URL it ended at, with the extension of
 * its content type added when it has none and its type cannot be told from its content
 * (`/export` served as `text/csv` is `export.csv`).
 */
function fileNameOf(finalUrl: string, contentType: string | null): string {
  const raw = path.posix.basename(new URL(finalUrl).pathname) || 'document';
  let name = raw;
  try {
    name = decodeURIComponent(raw);
  } catch {
    // kept as sent
  }
  const extension = UNMARKED_TYPE_EXTENSIONS[contentType?.split(';')[0].trim().toLowerCase() ?? ''];
  return extension && !name.includes('.') ? `${name}.${extension}` : name;
}
