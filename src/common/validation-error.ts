import { HttpException, HttpStatus } from '@nestjs/common';

/** One entry of the FastAPI-style `HTTPValidationError.detail` array. */
export interface ValidationErrorItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** 422 with body `{"detail":[ValidationError...]}`, as the spec's HTTPValidationError. */
export class RequestValidationError extends HttpException {
  constructor(readonly detail: ValidationErrorItem[]) {
    super({ detail }, HttpStatus.UNPROCESSABLE_ENTITY);
  }
}
