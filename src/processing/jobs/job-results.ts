import type { Readable } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import {
  jobDocumentKey,
  jobResultKey,
  parsedDocumentKey,
  RESULTS_FOLDER,
} from '../../database/blob-keys.js';
import { BlobNotFoundError, BlobStore, type StoredBlob } from '../../database/blob-store.js';
import type { JobDocument } from './job-pipeline.js';
import type { JobRecord } from '../core/job.types.js';

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

  save(jobId: string, result: Record<string, unknown>): Promise<StoredBlob> {
    return this.blobs.write(jobResultKey(jobId), Buffer.from(JSON.stringify(result), 'utf8'));
  }

  saveDocument(jobId: string, document: JobDocument): Promise<StoredBlob> {
    return this.blobs.write(jobDocumentKey(jobId, document.extension), document.bytes);
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
