import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import {
  jobOfResultKey,
  PAYLOADS_FOLDER,
  RESULTS_FOLDER,
  resultKeyOfParsedDocument,
} from '../../database/blob-keys.js';
import { BlobStore } from '../../database/blob-store.js';
import { JobsRepository } from '../jobs/jobs.repository.js';
import { UploadsRepository } from '../upload/uploads.repository.js';

/**
 * At start, before any work: removes what a crash or a failed request left in the file
 * store. Temporary files of interrupted writes, result files no job refers to (written by
 * a completion whose transaction did not commit), upload files without a complete upload
 * (a request cut between the file and its row), and presigned-PUT claims of the previous
 * process. Only files older than this process's start are candidates, so nothing written
 * meanwhile is touched. A result an executor wrote (staged) stays while its job is queued
 * or running: a Redis worker's report naming it may still be on its way.
 */
@Injectable()
export class OrphanSweeper implements OnApplicationBootstrap {
  private readonly logger = new Logger(OrphanSweeper.name);
  private readonly startedAt = Date.now();

  constructor(
    private readonly blobs: BlobStore,
    private readonly jobs: JobsRepository,
    private readonly uploads: UploadsRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const report = await this.sweep();
    const total = report.partial + report.staged + report.jobFiles + report.uploads + report.claims;
    if (total > 0) this.logger.warn(report, 'removed what interrupted writes left behind');
  }

  async sweep(): Promise<{
    partial: number;
    staged: number;
    jobFiles: number;
    uploads: number;
    claims: number;
  }> {
    const partial = await this.blobs.removeUnfinishedWrites();
    const staged = await this.removeUntakenResults();
    const claims = await this.uploads.releaseAllClaims();
    const jobFiles = await this.jobs.payloadKeys();
    const completeUploads = await this.uploads.completeFileIds();
    const orphans: string[] = [];
    let orphanJobFiles = 0;
    for (const key of await this.blobs.list('')) {
      const isJobFile =
        key.startsWith(`${RESULTS_FOLDER}/`) || key.startsWith(`${PAYLOADS_FOLDER}/`);
      // A parsed document lives as long as its job's result file.
      const owner = resultKeyOfParsedDocument(key) ?? key;
      const kept = isJobFile ? jobFiles.has(owner) : completeUploads.has(key);
      if (kept || !(await this.blobs.writtenBefore(key, this.startedAt))) continue;
      orphans.push(key);
      if (isJobFile) orphanJobFiles++;
    }
    await this.blobs.delete(orphans);
    return {
      partial,
      staged,
      jobFiles: orphanJobFiles,
      uploads: orphans.length - orphanJobFiles,
      claims,
    };
  }

  /** Staged results whose job has finished or is gone: nothing will take them. */
  private async removeUntakenResults(): Promise<number> {
    const untaken: string[] = [];
    for (const { name, key } of await this.blobs.listStaged()) {
      const jobId = jobOfResultKey(key);
      const job = jobId ? await this.jobs.find(jobId) : null;
      if (job?.state === 'queued' || job?.state === 'running') continue;
      untaken.push(name);
    }
    await this.blobs.discardStaged(untaken);
    return untaken.length;
  }
}
