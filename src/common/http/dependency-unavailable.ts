import { ApiError } from '../api-error.js';

/** Seconds a client is told to wait while a service docproc depends on is unreachable. */
const DEPENDENCY_RETRY_AFTER_SECONDS = 10;

/**
 * Network failures reaching another service (ClickHouse, Redis, Kafka): the request could
 * not be served now but may be in a moment. Failures of a client's own URLs never get here:
 * the input fetcher and the webhook sender answer those with their own codes.
 */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** A request that failed because a service docproc needs did not answer. */
export function isDependencyUnreachable(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && UNREACHABLE.has(code);
}

/** What such a request gets: a 503 to retry, never a 500 (the log names the service). */
export function dependencyUnavailableError(): ApiError {
  return ApiError.unavailable(
    'DEPENDENCY_UNAVAILABLE',
    'A service this request needs is unreachable; retry shortly.',
    DEPENDENCY_RETRY_AFTER_SECONDS,
  );
}
