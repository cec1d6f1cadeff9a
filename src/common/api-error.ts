import { HttpException, HttpStatus } from './nest-decorators.js';

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
    super({ error: { code, message, ...details } }, status);
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
}
