/** Internal job states; the API shows Pending (queued, running), Completed and Failed. */
export type JobState = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export type JobType = 'Classify' | 'Parse' | 'Extract' | 'Split' | 'Edit' | 'Pipeline';
export type ApiJobStatus = 'Pending' | 'Completed' | 'Failed' | 'Idle';

export interface JobRecord {
  jobId: string;
  orgId: string;
  apiKeyId: string;
  type: JobType;
  state: JobState;
  isAsync: boolean;
  /**
   * A sync job whose request a shutdown released with its job id: polling owns it, so a
   * restart queues it again (like an async job) instead of failing it as interrupted.
   */
  keptForPolling: boolean;
  request: Record<string, unknown>;
  /**
   * The versions resolved when the request was accepted (a pipeline's plan), as the registry
   * wrote them; null for an operation that pins none (classify).
   */
  versions: unknown;
  /** async.metadata as sent: any JSON value, undefined when absent. */
  metadata: unknown;
  /** Where the result lives (BlobStore key) once completed, until retention drops it. */
  resultKey: string | null;
  /** A document the job made (edit's filled form), stored beside the result. */
  documentKey: string | null;
  resultBytes: number | null;
  reason: string | null;
  errorCode: string | null;
  errorStatus: number | null;
  progress: number;
  attempts: number;
  numPages: number | null;
  totalPages: number | null;
  persistResult: boolean;
  resultExpired: boolean;
  cancelRequested: boolean;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface NewJob {
  jobId: string;
  orgId: string;
  apiKeyId: string;
  type: JobType;
  isAsync: boolean;
  request: Record<string, unknown>;
  /** See JobRecord.versions. */
  versions: unknown;
  metadata: unknown;
  persistResult: boolean;
}
