import { ApiError } from '../common/api-error.js';

/**
 * DuckDB errors after which the store cannot be trusted to go on: the database was
 * invalidated by an earlier fatal error (every later statement fails), or it could not
 * allocate memory (a failed allocation during a commit or checkpoint invalidates it).
 */
const FATAL = [
  /database has been invalidated/i,
  /\bFATAL Error\b/i,
  /Out of Memory Error/i,
  /could not allocate/i,
  /failed to pin block/i,
];

export function isFatalStoreError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return FATAL.some((pattern) => pattern.test(message));
}

/** Seconds a client is told to wait while the process restarts on a failed store. */
const STORE_FAILED_RETRY_AFTER_SECONDS = 10;

/** What requests get once the store failed: the process is draining and will restart. */
export function storeFailedError(cause: Error): ApiError {
  const error = ApiError.unavailable(
    'STORE_UNAVAILABLE',
    'The data store failed; this instance is restarting. Retry shortly.',
    STORE_FAILED_RETRY_AFTER_SECONDS,
  );
  // Logs and a failed start name the store's own error; clients see only the 503.
  error.cause = cause;
  error.message = `STORE_UNAVAILABLE: ${cause.message.split('\n')[0]}`;
  return error;
}

/**
 * Whether `error` comes from a failed store (the fatal error itself, or the 503 every
 * statement gets after it): work cut by it is not the work's failure. It stays where a
 * restart finds it (a job `running`, its task claimed) and runs again after the restart.
 */
export function isStoreFailure(error: unknown): boolean {
  return (
    (error instanceof ApiError && error.code === 'STORE_UNAVAILABLE') || isFatalStoreError(error)
  );
}
