import type { InputSource } from '../../core/input-document.js';
import type { JobOperation } from '../../operations/operations.js';
import type { Lane, QueueName } from '../../../config/queue.types.js';

/** BullMQ queues of the new queue system; `results` carries worker outcomes back to the API. */
export const RESULTS_QUEUE = 'results';

/** BullMQ priorities (lower runs first): the lanes keep their database-queue order. */
export const LANE_PRIORITY: Record<Lane, number> = { priority: 1, standard: 2, batch: 3 };
export const PRIORITY_LANE: Record<number, Lane> = { 1: 'priority', 2: 'standard', 3: 'batch' };

/** The lane of a BullMQ job by its priority; a job added without one is standard work. */
export function laneOfJob(job: { opts: { priority?: number } }): Lane {
  return PRIORITY_LANE[job.opts.priority ?? LANE_PRIORITY.standard] ?? 'standard';
}

export const PING_JOB = 'ping';

/**
 * Redis key marking a BullMQ job whose enqueue the API gave up on (time-out or error): the
 * job was failed or moved to the database queue, so if the add lands later anyway (ioredis
 * resends commands after a reconnect; a paused Redis runs them on resume), a worker that
 * takes it finds this key and drops it without running it. The API sends it on the same
 * connection right after the add, so Redis applies it after the add.
 */
export function revokedKey(prefix: string, bullJobId: string): string {
  return `${prefix}:revoked:${bullJobId}`;
}

/** How long a revocation is kept: longer than any retry of a lost enqueue. */
export const REVOKED_TTL_SECONDS = 7 * 24 * 3600;

/** What the Redis queue runs: every job operation (the one table, operations/operations.ts). */
export type RedisOperation = JobOperation;

/**
 * One job as a self-contained task for a Redis worker, which has no DuckDB: its inputs
 * (URLs, or upload blobs on the shared DATA_DIR), its stored request and the versions
 * resolved at submission (parse, extract, split, edit; a pipeline's plan), so the worker runs
 * what the request was accepted with. The BullMQ job name is the operation.
 */
export interface RedisJobTask {
  jobId: string;
  orgId: string;
  operation: RedisOperation;
  /** The job's pipeline (JobPipeline.taskKind): how the API process records the outcome. */
  kind: string;
  inputs: InputSource[];
  request: Record<string, unknown>;
  /** JobRecord.versions: null for classify. */
  versions: unknown;
}

/**
 * The classify-only task shape of the release before parse, extract and split were routed:
 * such tasks may still sit in Redis (or in a dispatch row) across an upgrade; workers and
 * the reconciler read them with `redisJobTaskOf`.
 */
export interface ClassifyOnlyTask {
  jobId: string;
  orgId: string;
  inputs: InputSource[];
  classificationSchema: unknown;
  model: string;
  pageRange: unknown;
  documentMetadata: string | null;
  categoryGroups?: Record<string, string[]>;
}

/** The classify pipeline's task kind (CLASSIFY_TASK), repeated to keep workers DuckDB-free. */
const CLASSIFY_KIND = 'classify';

/**
 * The task shape of the releases that kept a job's versions (and its operation) as
 * `__versions` / `__kind` keys inside the stored request, before they became columns.
 */
export type VersionsInRequestTask = Omit<RedisJobTask, 'versions'>;

export function redisJobTaskOf(
  data: RedisJobTask | VersionsInRequestTask | ClassifyOnlyTask,
): RedisJobTask {
  if ('versions' in data) return data;
  if ('operation' in data) {
    const { __versions: versions, ...request } = data.request;
    delete request.__kind;
    return { ...data, request, versions: versions ?? null };
  }
  return {
    jobId: data.jobId,
    orgId: data.orgId,
    operation: 'classify',
    kind: CLASSIFY_KIND,
    inputs: data.inputs,
    request: {
      // That shape kept no `input`; the request's own is rebuilt from the task's inputs
      // (an upload's blob is named by its file id), so the request validates as sent.
      input: data.inputs.map((i) => ('url' in i ? i.url : `docproc://${i.fileName}`)),
      classification_schema: data.classificationSchema,
      model: data.model,
      page_range: data.pageRange,
      document_metadata: data.documentMetadata,
      category_groups: data.categoryGroups,
    },
    versions: null,
  };
}

export interface PingTask {
  pingId: string;
  queue: QueueName;
}

export interface PingReply {
  pong: true;
  queue: QueueName;
  worker: string;
}

/**
 * A worker's outcome on the `results` queue; the API process writes it to the job store with
 * the pipeline `kind` names (absent from workers of the classify-only release: classify).
 */
export type RedisJobResult = { jobId: string; kind?: string } & (
  { outcome: unknown } | { failure: { code: string; message: string; status: number } }
);

/** Sent on the `results` queue when a worker starts a job, so the API can show it running. */
export interface RedisJobStarted {
  jobId: string;
  started: true;
}

/** What travels on the `results` queue (BullMQ job names `started` and `result`). */
export type RedisJobReport = RedisJobStarted | RedisJobResult;
export const STARTED_REPORT = 'started';
export const RESULT_REPORT = 'result';

/** The BullMQ job id of a job's task: one per job and operation, so a repeated add is a no-op. */
export function bullJobIdOf(operation: RedisOperation, jobId: string): string {
  return `${operation}-${jobId}`;
}
