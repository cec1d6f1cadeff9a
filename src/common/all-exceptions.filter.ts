import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, boundedMessage } from './api-error.js';
import { methodsAllowedInstead } from './http/allowed-methods.js';
import { errorCodeOfStatus } from './http/error-statuses.js';
import { malformedBodyError } from './http/malformed-body.js';
import {
  dependencyUnavailableError,
  isDependencyUnreachable,
} from './http/dependency-unavailable.js';
import { isOutOfSpace, storageFullError } from './http/storage-full.js';
import { RequestValidationError } from './validation-error.js';

/**
 * Renders every error in one of two shapes: the 422 HTTPValidationError body, or the
 * `{"error":{code,message}}` envelope. 5xx bodies carry the request id and nothing internal.
 * A path served under other methods answers 405 with `Allow` whatever went wrong first.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  catch(thrown: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const exception =
      this.unavailable(thrown, request) ?? malformedBodyError(thrown, request) ?? thrown;

    const allowed = methodsAllowedInstead(request);
    if (allowed) {
      void reply
        .header('Allow', allowed.join(', '))
        .status(405)
        .send({
          error: {
            code: 'METHOD_NOT_ALLOWED',
            message: `${request.method} is not allowed here; allowed: ${allowed.join(', ')}`,
            allowed,
          },
        });
      return;
    }
    if (exception instanceof RequestValidationError) {
      void reply.status(422).send({ detail: exception.detail });
      return;
    }
    if (exception instanceof ApiError) {
      for (const [name, value] of Object.entries(exception.headers)) void reply.header(name, value);
      void reply.status(exception.getStatus()).send(exception.getResponse());
      return;
    }
    if (clientWentAway(exception, request)) {
      // Nothing can be answered: a request timeout (answered 408 on the socket) or the
      // client cut the connection while the body was being read.
      this.logger.warn({ requestId: request.id }, 'the request body was cut off');
      return;
    }
    const status =
      exception instanceof HttpException ? exception.getStatus() : errorStatus(exception);
    if (status >= 500) {
      this.logger.error({ err: exception, requestId: request.id }, 'request failed');
      void reply.status(status).send({
        error: { code: 'INTERNAL_ERROR', message: 'Internal server error', requestId: request.id },
      });
      return;
    }
    if (status === 401) void reply.header('WWW-Authenticate', 'Bearer');
    void reply.status(status).send({
      error: {
        code: errorCodeOfStatus(status),
        message: boundedMessage(clientMessage(exception, status)),
      },
    });
  }

  /**
   * A full disk or an unreachable service is the server's condition, not a defect: the
   * client gets a 503 to retry (logged once here, with the cause), never a 500.
   */
  private unavailable(thrown: unknown, request: FastifyRequest): ApiError | null {
    if (isOutOfSpace(thrown)) {
      this.logger.error(
        { err: thrown, requestId: request.id },
        'out of disk space: request answered 503 STORAGE_FULL',
      );
      return storageFullError();
    }
    if (isDependencyUnreachable(thrown) && !clientWentAway(thrown, request)) {
      this.logger.error(
        { err: thrown, requestId: request.id },
        'a service this request needs is unreachable: answered 503 DEPENDENCY_UNAVAILABLE',
      );
      return dependencyUnavailableError();
    }
    return null;
  }
}

/** The request stream failed because its connection closed before the body ended. */
function clientWentAway(exception: unknown, request: FastifyRequest): boolean {
  return (
    (exception as NodeJS.ErrnoException | null)?.code === 'ECONNRESET' &&
    request.raw.socket.destroyed
  );
}

/** Fastify's own errors (bad JSON, body too large) carry a statusCode. */
function errorStatus(exception: unknown): number {
  const statusCode = (exception as { statusCode?: unknown })?.statusCode;
  return typeof statusCode === 'number' && statusCode >= 400 && statusCode < 600
    ? statusCode
    : HttpStatus.INTERNAL_SERVER_ERROR;
}

function clientMessage(exception: unknown, status: number): string {
  if (exception instanceof HttpException) {
    const response = exception.getResponse();
    if (typeof response === 'string') return response;
    const message = (response as { message?: unknown }).message;
    if (Array.isArray(message)) return message.join('; ');
    if (typeof message === 'string') return message;
  }
  if (exception instanceof Error && exception.message) return exception.message;
  return HttpStatus[status] ?? 'Error';
}
