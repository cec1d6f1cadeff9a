import type { StreamableFile } from '@nestjs/common';
import type { WrittenJson } from '../../documents/executors/operation.task.js';
import type { Billing } from '../operations/operation.js';
import type { InputDocument } from '../core/input-document.js';
import type { ClassifyInputValue } from '../inputs/input-resolver.service.js';
import type { Lane } from '../../config/queue.types.js';
import type { JobRecord, JobType } from '../core/job.types.js';

/** The request fields that choose a lane (ClassifyConfig and the operations' bodies). */
export interface LaneFields {
  queue_priority?: string;
  priority: boolean;
  async: { priority: boolean };
}

/** Lane of a request: batch when asked, else priority/standard per the spec's two flags. */
export function laneFor(config: LaneFields, isAsync: boolean): Lane {
  if (config.queue_priority === 'batch') return 'batch';
  const priority = isAsync ? config.async.priority : config.priority;
  return priority ? 'priority' : 'standard';
}

/**
 * What a sync request answers: the response as an object, or a stored result file sent as
 * it is (stored-result-body.ts).
 */
export type SyncAnswer = Record<string, unknown> | StreamableFile;

/**
 * What differs between kinds of jobs (classify; parse, extract, split): how a stored
 * request runs on resolved documents, and how its outcome is billed and shown.
 * Everything else (job store, queue, admission, sync waits, cancellation, usage outbox,
 * webhooks) is the JobRunner's and its SubmissionGate, JobExecutor and JobOutcomeRecorder.
 */
export interface JobPipeline<Outcome> {
  /** Queue command kind of these jobs. */
  readonly taskKind: string;
  /** The job types this pipeline runs. */
  readonly jobTypes: readonly JobType[];
  /**
   * Runs a started job. Errors the client caused are thrown as ProcessingError; `signal`
   * aborts when the job is cancelled (the executor doing the work is ended).
   */
  run(job: JobRecord, documents: InputDocument[], signal?: AbortSignal): Promise<Outcome>;
  billing(job: JobRecord, outcome: Outcome): Billing;
  /**
   * The stored result (the body of a sync response and of `GET /job`'s `result`);
   * `charged`: the credits of each of `billing.charges`, in order, when it has them.
   */
  result(
    job: JobRecord,
    outcome: Outcome,
    credits: string,
    durationSeconds: number,
    charged?: string[],
  ): Record<string, unknown>;
  /**
   * A document the job made (edit's filled form), stored as a file beside the result and
   * served by a signed URL; undefined for jobs that make none.
   */
  document?(job: JobRecord, outcome: Outcome): JobDocument | undefined;
  /**
   * Values of the outcome its executor wrote to files instead of sending them (a result
   * running to megabytes): `result` holds them as they are, and storing it puts the files'
   * bytes in their place; files no stored result took are removed. None by default.
   */
  written?(outcome: Outcome): WrittenJson[];
  /** The sync answer of a completed job (default: its stored result, parsed). */
  syncResult?(job: JobRecord): Promise<SyncAnswer>;
  /** A failed sync job's own error, when its failure is not the generic error envelope. */
  syncFailure?(job: JobRecord): Error | undefined;
}

/**
 * A document a job made, as stored beside its result: its bytes, or the file its executor
 * wrote them to (also listed by the pipeline's `written`, so it is removed after the commit).
 */
export type JobDocument = ({ bytes: Buffer } | { written: WrittenJson }) & {
  /** File extension (`pdf`, `docx`): names the file and gives its content type when served. */
  extension: string;
};

/** A job about to be stored: its row and its task. */
export interface Submission {
  type: JobType;
  /** Stored with the job; `input` is what the worker resolves. */
  request: Record<string, unknown> & { input: ClassifyInputValue };
  /** The versions resolved as the request was accepted (JobRecord.versions); null for none. */
  versions: unknown;
  isAsync: boolean;
  /** `async.metadata` of an async request (any JSON value), undefined for sync ones. */
  metadata: unknown;
  persistResult: boolean;
  lane: Lane;
  /** Whether the queue admission cap applies (spec: sync and parse requests). */
  gated: boolean;
}
