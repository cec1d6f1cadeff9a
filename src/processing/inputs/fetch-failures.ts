import { ProcessingError } from '../core/processing-error.js';

/** A redirect's target, or 502 `INPUT_REDIRECT_INVALID` when its Location is no URL. */
export function redirectTarget(location: string, from: URL): URL {
  try {
    return new URL(location, from);
  } catch {
    throw new ProcessingError(
      'INPUT_REDIRECT_INVALID',
      `Fetching ${from.host} redirected to an invalid URL: ${JSON.stringify(location.slice(0, 200))}`,
      502,
    );
  }
}

/** undici's header and body time-outs, and the abort of the request's overall time limit. */
export function isTimeout(error: unknown): boolean {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  return (
    name === 'TimeoutError' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  );
}
