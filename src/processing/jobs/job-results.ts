import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import {
  jobDocumentKey,
  jobResultKey,
  parsedDocumentKey,
  RESULTS_FOLDER,
} from '../../database/blob-keys.js';
import {
  BlobNotFoundError,
  BlobStore,
  type StagedPart,
  type StoredBlob,
} from '../../database/blob-store.js';
import type {
  OperationTask,
  OutcomeFiles,
  WrittenJson,
} from '../../documents/executors/operation.task.js';
import { outcomePartCount } from '../../documents/executors/outcome-files.js';
import type { JobDocument } from './job-pipeline.js';
import type { JobRecord } from '../core/job.types.js';

/**
 * The files an executor writes a job's result and a parse's lines to (and the further
 * parts `task` writes: an edit's document and report, a pipeline's steps' results): staged
 * beside the result file (`save` takes the result and its parts, `saveDocument` an edit's
 * document, `keepParsedDocument` the lines), so the start-up sweep knows their job; one
 * that nothing takes is removed after the job's completion commits, or by that sweep once
 * its job has finished.
 */
export function outcomeFilesFor(
  blobs: BlobStore,
  jobId: string,
  task?: OperationTask,
): OutcomeFiles {
  const resultKey = jobResultKey(jobId);
  const parts = task ? outcomePartCount(task) : 0;
  return {
    root: blobs.stagingRoot,
    result: blobs.stagingName(resultKey),
    layout: blobs.stagingName(parsedDocumentKey(resultKey)),
    parts: Array.from({ length: parts }, () => blobs.stagingName(resultKey)),
  };
}

/**
 * Job results as files: written when the job completes (before its row commits, so a
 * committed job always finds its file; a write whose transaction then failed leaves an
 * orphan the start-up sweep removes), read only for the one job asked for, deleted after
 * the commit that drops the job or its result.
 */
@Injectable()
export class JobResults {
  private readonly logger = new Logger(JobResults.name);

  constructor(private readonly blobs: BlobStore) {}

  /**
   * Stores a job's result. `written`: values of `result` an executor wrote to files (the
   * very objects, found by identity, never by their shape: a tenant's data can look like
   * anything); their files' bytes go in their place, streamed, and the files are removed.
   */
  save(
    jobId: string,
    result: Record<string, unknown>,
    written: readonly WrittenJson[] = [],
  ): Promise<StoredBlob> {
    const key = jobResultKey(jobId);
    if (written.length === 0) return this.blobs.write(key, Buffer.from(JSON.stringify(result)));
    // A mark no document's text holds: a file's bytes go where its mark is.
    const markOf = (index: number) => `\u0000written:${randomUUID()}:${index}`;
    const marks: { staged: string; mark: string }[] = [];
    const json = JSON.stringify(result, (_key, value: unknown) => {
      const at = written.indexOf(value as WrittenJson);
      if (at < 0) return value;
      const mark = markOf(marks.length);
      marks.push({ staged: written[at].writtenJson, mark });
      return mark;
    });
    const parts: (Buffer | StagedPart)[] = [];
    let from = 0;
    for (const { staged, mark: text } of marks) {
      const mark = JSON.stringify(text);
      const at = json.indexOf(mark, from);
      parts.push(Buffer.from(json.slice(from, at)), { staged });
      from = at + mark.length;
    }
    parts.push(Buffer.from(json.slice(from)));
    return this.blobs.compose(key, parts);
  }

  /** See `outcomeFilesFor`. */
  stagingFor(jobId: string, task?: OperationTask): OutcomeFiles {
    return outcomeFilesFor(this.blobs, jobId, task);
  }

  /** Removes files an executor wrote that no result took (a job cancelled meanwhile). */
  async discardWritten(written: readonly WrittenJson[]): Promise<void> {
    await this.blobs
      .discardStaged(written.map((file) => file.writtenJson))
      .catch((error: unknown) => {
        this.logger.error({ err: error }, 'could not delete the files an executor wrote');
      });
  }

  /**
   * Stores a job's document: its bytes, or the file its executor wrote, copied (streamed)
   * so that file stays for a second try of the same outcome until `discardWritten`.
   */
  saveDocument(jobId: string, document: JobDocument): Promise<StoredBlob> {
    const key = jobDocumentKey(jobId, document.extension);
    return 'written' in document
      ? this.blobs.compose(key, [{ staged: document.written.writtenJson }])
      : this.blobs.write(key, document.bytes);
  }

  /** The document a completed job made; null when it made none or retention dropped it. */
  async loadDocument(job: JobRecord): Promise<{ bytes: Buffer; extension: string } | null> {
    if (job.state !== 'completed' || !job.documentKey) return null;
    try {
      const bytes = await this.blobs.read(job.documentKey);
      return { bytes, extension: job.documentKey.split('.').pop() ?? 'bin' };
    } catch (error) {
      if (!(error instanceof BlobNotFoundError)) throw error;
      this.logger.error(`the document file of job ${job.jobId} is missing (${job.documentKey})`);
      return null;
    }
  }

  /** The result of a completed job; null for any other, or once retention dropped it. */
  async load(job: JobRecord): Promise<Record<string, unknown> | null> {
    if (job.state !== 'completed' || !job.resultKey) return null;
    try {
      return JSON.parse((await this.blobs.read(job.resultKey)).toString('utf8')) as Record<
        string,
        unknown
      >;
    } catch (error) {
      if (!(error instanceof BlobNotFoundError)) throw error;
      this.logger.error(`the result file of job ${job.jobId} is missing (${job.resultKey})`);
      return null;
    }
  }

  /**
   * The result file of a completed job, opened, to be sent as it is (never parsed here);
   * null for any other job, or once retention dropped it.
   */
  async open(job: JobRecord): Promise<Readable | null> {
    if (job.state !== 'completed' || !job.resultKey) return null;
    try {
      return await this.blobs.open(job.resultKey);
    } catch (error) {
      if (!(error instanceof BlobNotFoundError)) throw error;
      this.logger.error(`the result file of job ${job.jobId} is missing (${job.resultKey})`);
      return null;
    }
  }

  /**
   * Deletes a job's files (result, stored request) after the commit that let go of them;
   * a failure is only logged (the start-up sweep removes what is left).
   */
  async remove(keys: readonly (string | null)[]): Promise<void> {
    const present = keys
      .filter((key): key is string => key !== null)
      // A result's parsed document (a parse job's, kept for jobid:// inputs) goes with it.
      .flatMap((key) =>
        key.startsWith(`${RESULTS_FOLDER}/`) ? [key, parsedDocumentKey(key)] : [key],
      );
    if (present.length === 0) return;
    await this.blobs.delete(present).catch((error: unknown) => {
      this.logger.error({ err: error }, 'could not delete job result files');
    });
  }
}
