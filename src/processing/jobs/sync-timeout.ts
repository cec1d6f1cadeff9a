import { HttpStatus } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';

/**
 * The answer of a sync request whose job outlived SYNC_TIMEOUT_MS. The job is not
 * cancelled: it keeps running (and is billed when it completes), so the body names it for
 * `GET /job/{job_id}`. `x-should-retry: false` stops Stainless-generated SDKs (reductoai)
 * from resubmitting on their own, which would start and bill a second job.
 */
export function syncTimeoutError(jobId: string, timeoutMs: number): ApiError {
  const seconds = Math.round(timeoutMs / 100) / 10;
  return new ApiError(
    HttpStatus.GATEWAY_TIMEOUT,
    'SYNC_TIMEOUT',
    `The job did not finish within ${seconds} s; it keeps running: poll GET /job/${jobId} for its result`,
    { job_id: jobId },
    { 'x-should-retry': 'false' },
  );
}
