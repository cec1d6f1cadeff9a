import type { Lane, QueueName } from '../../processing/queue/queue-driver.js';
import type { ClassificationOutcome } from '../../processing/classify-jobs/classification-runner.js';
import type { PageSelection } from '../../processing/requests/classify-config.dto.js';

/** BullMQ queues of the new queue system; `results` carries worker outcomes back to the API. */
export const RESULTS_QUEUE = 'results';

/** BullMQ priorities (lower runs first): the lanes keep their database-queue order. */
export const LANE_PRIORITY: Record<Lane, number> = { priority: 1, standard: 2, batch: 3 };
export const PRIORITY_LANE: Record<number, Lane> = { 1: 'priority', 2: 'standard', 3: 'batch' };

export const CLASSIFY_JOB = 'classify';
export const PING_JOB = 'ping';

/** One input of a remote task: a URL to fetch, or an uploaded blob on the shared DATA_DIR. */
export type RemoteInput = { url: string } | { blob: string; fileName: string };

/** What a Redis worker needs to classify, without reading DuckDB. */
export interface RemoteClassifyTask {
  jobId: string;
  orgId: string;
  inputs: RemoteInput[];
  classificationSchema: { category: string; criteria: string[] }[];
  model: 'default' | 'accurate';
  pageRange: PageSelection;
  documentMetadata: string | null;
  categoryGroups?: Record<string, string[]>;
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

/** A worker's outcome on the `results` queue; the API process writes it to the job store. */
export type RemoteResult =
  | { jobId: string; outcome: ClassificationOutcome }
  | { jobId: string; failure: { code: string; message: string; status: number } };

/** Sent on the `results` queue when a worker starts a job, so the API can show it running. */
export interface RemoteStarted {
  jobId: string;
  started: true;
}

/** What travels on the `results` queue (BullMQ job names `started` and `result`). */
export type RemoteReport = RemoteStarted | RemoteResult;
export const STARTED_REPORT = 'started';
export const RESULT_REPORT = 'result';
