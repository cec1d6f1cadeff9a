import { ApiError } from '../api-error.js';

/** Seconds a client is told to wait while the data volume has no room. */
export const STORAGE_FULL_RETRY_AFTER_SECONDS = 60;

/** The code of every answer and job failure a full data volume causes. */
export const STORAGE_FULL = 'STORAGE_FULL';

/**
 * What a request that would write gets while the data volume is (nearly) full: a 503 the
 * client retries, never a 500. The operator frees space or grows the volume; `/ready`
 * names the volume meanwhile.
 */
export function storageFullError(): ApiError {
  return ApiError.unavailable(
    STORAGE_FULL,
    'The server is out of disk space for new work; retry later.',
    STORAGE_FULL_RETRY_AFTER_SECONDS,
  );
}

/** A write that failed because the volume or the user's quota is full. */
export function isOutOfSpace(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return true;
  // DuckDB reports the system's error in its message only.
  const message = error instanceof Error ? error.message : '';
  return /No space left on device|Disk quota exceeded/i.test(message);
}
