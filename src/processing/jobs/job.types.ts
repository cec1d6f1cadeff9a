import { InvalidCommandError } from '../queue/queue-command.js';
import {
  CorruptDocumentError,
  PageSelectionError,
  UnsupportedDocumentError,
} from '../../documents/readers/document.errors.js';
import { DocumentLimitError } from '../../documents/readers/document-limits.js';
import {
  ExecutorCrashedError,
  ExecutorLimitError,
} from '../../documents/executors/executor.errors.js';

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
  request: Record<string, unknown>;
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
  metadata: unknown;
  persistResult: boolean;
}

/**
 * A failure the client can be told about: its message becomes the job's `reason`, and a
 * sync request answers with `status` and `{"error":{code,message}}`.
 */
export class ProcessingError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = 'ProcessingError';
  }
}

/** Code of a `page_range` the document cannot satisfy; a sync request answers it with a 422. */
export const PAGE_RANGE_INVALID = 'PAGE_RANGE_INVALID';

/** The document library's typed errors as client-facing failures; anything else stays internal. */
export function toProcessingError(error: unknown): unknown {
  if (error instanceof PageSelectionError)
    return new ProcessingError(PAGE_RANGE_INVALID, error.message, 422);
  if (error instanceof UnsupportedDocumentError) {
    return new ProcessingError('UNSUPPORTED_DOCUMENT', error.message, 400);
  }
  if (error instanceof ExecutorLimitError || error instanceof ExecutorCrashedError)
    return new ProcessingError(error.code, error.message, error.status);
  if (error instanceof DocumentLimitError)
    return new ProcessingError(error.code, error.message, error.status);
  if (error instanceof CorruptDocumentError)
    return new ProcessingError('CORRUPT_DOCUMENT', error.message, 400);
  // A stored request that no longer validates: the job fails naming the field, it never
  // runs on a wrong shape (a bug or an incompatible release, hence 500).
  if (error instanceof InvalidCommandError)
    return new ProcessingError('INVALID_JOB_REQUEST', error.message, 500);
  return error;
}
