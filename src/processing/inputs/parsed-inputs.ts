import fs from 'node:fs';
import path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { jobResultKey, parsedDocumentKey } from '../../database/blob-keys.js';
import { BlobStore } from '../../database/blob-store.js';
import type { LayoutDocument } from '../../documents/parse/layout.types.js';
import type { WrittenJson } from '../../documents/executors/operation.task.js';
import { isWrittenJson } from '../../documents/executors/outcome-files.js';
import { layoutFromParseResult, type ParsedDocument } from '../../documents/parse/parsed-layout.js';
import type { ParseResult } from '../../documents/parse/parse.operation.js';
import type { ParsedSource } from '../core/input-document.js';
import { OPERATIONS } from '../operations/operations.js';
import { ProcessingError } from '../core/processing-error.js';
import { JOB_LOOKUP, type JobLookup } from '../core/job-lookup.js';

/** `jobid://<job_id>`: an earlier parse job's document as an input. */
const JOB_SCHEME = 'jobid://';

export function isJobReference(url: string): boolean {
  return url.startsWith(JOB_SCHEME);
}

/**
 * `jobid://` inputs: a completed parse job of the caller's organization stands for its
 * document. The lines the parse read are kept beside its result file when it completes
 * (`keep`), so extract, split, classify and pipelines reuse them without reading the
 * document again. Another organization's job is 404 (as a file id is), a job that is not
 * a completed parse a 409 or 400 naming why.
 */
@Injectable()
export class ParsedInputs {
  constructor(
    @Inject(JOB_LOOKUP) private readonly jobs: JobLookup,
    private readonly blobs: BlobStore,
  ) {}

  /** The parse job behind `url`, checked: its result file as a source to read. */
  async source(orgId: string, url: string): Promise<ParsedSource> {
    const jobId = url.slice(JOB_SCHEME.length);
    const job = jobId ? await this.jobs.find(jobId) : null;
    if (!job || job.orgId !== orgId) {
      throw new ProcessingError('JOB_NOT_FOUND', `No job ${url}`, 404);
    }
    if (job.type !== OPERATIONS.parse.jobType) {
      throw new ProcessingError(
        'NOT_A_PARSE_JOB',
        `${url} is a job of type ${job.type}; only a parse job's document can be reused`,
        400,
      );
    }
    if (job.state !== 'completed') {
      throw new ProcessingError(
        'JOB_NOT_COMPLETED',
        `${url} is ${job.state}; a parse job can be reused once it has completed`,
        409,
      );
    }
    if (!job.resultKey) {
      throw new ProcessingError(
        'JOB_RESULT_EXPIRED',
        `The result of ${url} is no longer kept; parse the document again`,
        409,
      );
    }
    return { parsed: job.resultKey, fileName: url };
  }

  /** See `keepParsedDocument`. */
  keep<Outcome extends object>(jobId: string, outcome: Outcome): Promise<Outcome> {
    return keepParsedDocument(this.blobs, jobId, outcome);
  }
}

/**
 * Keeps the lines a parse job read (`outcome.layout`, or the file its executor wrote them
 * to) beside its result file, before the job completes, and returns the outcome without
 * them (they are not part of any answer). A job that then does not complete leaves a file
 * the start-up sweep removes.
 */
export async function keepParsedDocument<Outcome extends object>(
  blobs: BlobStore,
  jobId: string,
  outcome: Outcome,
): Promise<Outcome> {
  if (!('layout' in outcome) || !outcome.layout) return outcome;
  const { layout, ...rest } = outcome as Outcome & { layout: LayoutDocument | WrittenJson };
  const key = parsedDocumentKey(jobResultKey(jobId));
  if (isWrittenJson(layout)) await blobs.adopt(layout.writtenJson, key);
  else await blobs.write(key, Buffer.from(JSON.stringify(layout), 'utf8'));
  return rest as Outcome;
}

/**
 * Reads the document of a `jobid://` source from the file store (`blobDir`, which the Redis
 * workers share): the kept lines, or, for a parse job completed before they were kept, a
 * layout rebuilt from its result file's blocks.
 */
export async function readParsedSource(
  blobDir: string,
  source: ParsedSource,
): Promise<ParsedDocument> {
  const fileOf = (key: string) =>
    path.join(blobDir, ...key.split('/').map((s) => path.basename(s)));
  const kept = await fs.promises
    .readFile(fileOf(parsedDocumentKey(source.parsed)), 'utf8')
    .catch(() => null);
  if (kept !== null) return { name: source.fileName, layout: JSON.parse(kept) as LayoutDocument };
  const stored = await fs.promises.readFile(fileOf(source.parsed), 'utf8').catch(() => null);
  const result = stored === null ? null : (JSON.parse(stored) as { result?: ParseResult });
  if (!result?.result || result.result.type !== 'full') {
    throw new ProcessingError(
      'JOB_RESULT_EXPIRED',
      `The result of ${source.fileName} is no longer kept; parse the document again`,
      409,
    );
  }
  // A loop, not Math.max(...pages): a long document's blocks outnumber a call's arguments.
  let pages = 0;
  for (const chunk of result.result.chunks)
    for (const block of chunk.blocks) pages = Math.max(pages, block.bbox.page);
  const layout = layoutFromParseResult(result.result, 'pdf', pages);
  return { name: source.fileName, layout };
}
