import { applyDecorators, HttpStatus } from '@nestjs/common';
import { ApiResponse, ApiSecurity } from '@nestjs/swagger';
import { ApiErrorBody, HttpValidationErrorBody } from './error-bodies.js';

/** The processing key: what document-processing routes accept (spec "Authentication"). */
export const PROCESSING_KEY_SCHEME = 'SkippableHTTPBearer';
/** A personal account API key: the account dashboard API (usage export, keys). */
export const ACCOUNT_KEY_SCHEME = 'AccountBearer';

const ERROR_MEANINGS: Partial<Record<HttpStatus, string>> = {
  [HttpStatus.BAD_REQUEST]: 'The request is invalid (the error code names what is wrong)',
  [HttpStatus.UNAUTHORIZED]: 'The bearer key is missing, unknown or revoked',
  [HttpStatus.FORBIDDEN]: 'The key may not do this (e.g. another organization)',
  [HttpStatus.NOT_FOUND]: 'No such resource for this caller',
  [HttpStatus.CONFLICT]: 'The resource is not in a state that allows this',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'The document or upload is larger than the limit',
  [HttpStatus.SERVICE_UNAVAILABLE]:
    'Queue full (`QUEUE_FULL`, with `Retry-After: 30`) or the service is shutting down (`SHUTTING_DOWN`, with `Retry-After`)',
};

/** Error responses with the error envelope `{"error":{"code","message",...}}`. */
export function ApiErrors(...statuses: HttpStatus[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: ERROR_MEANINGS[status] ?? 'Error', type: ApiErrorBody }),
    ),
  );
}

/** 422 with the spec's HTTPValidationError body. */
export function ApiValidationError(): MethodDecorator & ClassDecorator {
  return ApiResponse({
    status: HttpStatus.UNPROCESSABLE_ENTITY,
    description: 'The request failed validation',
    type: HttpValidationErrorBody,
  });
}

/** Routes behind ProcessingAuthGuard. */
export function ApiProcessingAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(ApiSecurity(PROCESSING_KEY_SCHEME), ApiErrors(HttpStatus.UNAUTHORIZED));
}

/** Routes behind AccountAuthGuard. */
export function ApiAccountAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(ApiSecurity(ACCOUNT_KEY_SCHEME), ApiErrors(HttpStatus.UNAUTHORIZED));
}
