import { HttpException, HttpStatus } from './nest-decorators.js';

/**
 * The most characters of an error message a client is sent or a job keeps as its reason:
 * messages quote what the request named (a URL, a job id), which can be as long as the body.
 */
const MAX_ERROR_MESSAGE_CHARS = 2_000;

/** `message`, cut to MAX_ERROR_MESSAGE_CHARS with a note of how much was left out. */
export function boundedMessage(message: string): string {
  if (message.length <= MAX_ERROR_MESSAGE_CHARS) return message;
  const left = message.length - MAX_ERROR_MESSAGE_CHARS;
  return `${message.slice(0, MAX_ERROR_MESSAGE_CHARS)}... (${left} more characters)`;
}

/**
 * An error the client can act on. It renders as
 * `{"error":{"code":"...","message":"...", ...details}}` with a stable upper-case code.
 */
export class ApiError extends HttpException {
  constructor(
    status: HttpStatus,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super({ error: { code, message: boundedMessage(message), ...details } }, status);
  }

  static badRequest(code: string, message: string, details?: Record<string, unknown>): ApiError {
    return new ApiError(HttpStatus.BAD_REQUEST, code, message, details);
  }

  static unauthorized(message = 'A valid bearer API key is required'): ApiError {
    return new ApiError(
      HttpStatus.UNAUTHORIZED,
      'UNAUTHORIZED',
      message,
      {},
      { 'WWW-Authenticate': 'Bearer' },
    );
  }

  static forbidden(code: string, message: string): ApiError {
    return new ApiError(HttpStatus.FORBIDDEN, code, message);
  }

  static notFound(code: string, message: string): ApiError {
    return new ApiError(HttpStatus.NOT_FOUND, code, message);
  }

  /** A 503 the client retries after `retryAfterSeconds` (its `Retry-After`). */
  static unavailable(
    code: string,
    message: string,
    retryAfterSeconds: number,
    details?: Record<string, unknown>,
  ): ApiError {
    return new ApiError(HttpStatus.SERVICE_UNAVAILABLE, code, message, details, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}
