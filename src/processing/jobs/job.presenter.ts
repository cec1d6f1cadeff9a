import type { ApiJobStatus, JobRecord, JobState } from '../core/job.types.js';
import { withoutDocumentPassword } from '../core/document-password.js';

const API_STATUS: Record<JobState, ApiJobStatus> = {
  queued: 'Pending',
  running: 'Pending',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Failed',
};

/** `GET /jobs` may use the SDK's wider status enum. */
const LIST_STATUS: Record<JobState, string> = {
  queued: 'Pending',
  running: 'InProgress',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/**
 * `idle`: the job is queued where no worker of this deployment claims it (see
 * LegacyWorkers.claims), so it makes no progress until one starts. Pending means it is
 * queued for a worker or running.
 */
function apiStatus(state: JobState, idle = false): ApiJobStatus {
  return idle && state === 'queued' ? 'Idle' : API_STATUS[state];
}

function durationSeconds(job: JobRecord): number | null {
  if (!job.finishedAt) return null;
  return Math.max(0, (job.finishedAt.getTime() - job.createdAt.getTime()) / 1000);
}

export interface JobView {
  job_id: string;
  status: ApiJobStatus;
  progress: number;
  reason: string | null;
  result: Record<string, unknown> | null;
  type: string;
  created_at: string;
  duration: number | null;
  num_pages: number | null;
  total_pages: number | null;
}

/** The `GET /job/{id}` body (reductoai SDK `EnhancedAsyncJobResponse`). */
export function presentJob(
  job: JobRecord,
  result: Record<string, unknown> | null,
  idle = false,
): JobView {
  let reason = job.reason;
  if (job.state === 'completed' && job.resultExpired)
    reason = 'The result was deleted after the retention period';
  return {
    job_id: job.jobId,
    status: apiStatus(job.state, idle),
    progress: job.progress,
    reason,
    result,
    type: job.type,
    created_at: job.createdAt.toISOString(),
    duration: durationSeconds(job),
    num_pages: job.numPages,
    total_pages: job.totalPages,
  };
}

/** One item of `GET /jobs` (SDK `JobGetAllResponse.Job`). */
export function presentListItem(
  job: JobRecord,
  includeConfig: boolean,
  idle = false,
): Record<string, unknown> {
  return {
    job_id: job.jobId,
    status: idle && job.state === 'queued' ? 'Idle' : LIST_STATUS[job.state],
    type: job.type,
    created_at: job.createdAt.toISOString(),
    duration: durationSeconds(job),
    num_pages: job.numPages,
    total_pages: job.totalPages,
    // Empty rather than absent when left out: the reductoai SDK types it as a string always.
    raw_config: includeConfig ? JSON.stringify(withoutDocumentPassword(job.request)) : '',
  };
}
