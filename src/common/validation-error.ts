import { HttpException, HttpStatus } from '@nestjs/common';

/** One entry of the FastAPI-style `HTTPValidationError.detail` array. */
export interface ValidationErrorItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** At most this many items in a 422 `detail`; the last one then says how many were left out. */
export const MAX_VALIDATION_ERRORS = 50;
/** An item's `input` echo is left out past this many characters of JSON (a 422 stays small). */
const MAX_INPUT_ECHO_CHARS = 512;

/**
 * 422 with body `{"detail":[ValidationError...]}`, as the spec's HTTPValidationError.
 * Bounded whatever the body: a list of 150,000 wrong items answers 50 errors and a count,
 * and an echoed `input` is cut to a short prefix, so the answer stays a few kilobytes.
 */
export class RequestValidationError extends HttpException {
  readonly detail: ValidationErrorItem[];

  constructor(detail: ValidationErrorItem[]) {
    const bounded = detail.slice(0, MAX_VALIDATION_ERRORS).map(boundedItem);
    if (detail.length > MAX_VALIDATION_ERRORS) {
      bounded.push({
        loc: ['body'],
        msg: `${detail.length - MAX_VALIDATION_ERRORS} more errors not listed`,
        type: 'too_many_errors',
        ctx: { total: detail.length, listed: MAX_VALIDATION_ERRORS },
      });
    }
    super({ detail: bounded }, HttpStatus.UNPROCESSABLE_ENTITY);
    this.detail = bounded;
  }
}

function boundedItem(item: ValidationErrorItem): ValidationErrorItem {
  const bounded = { ...item, loc: item.loc.slice(0, 16), msg: cut(item.msg, 1_000) };
  if (item.input === undefined) return bounded;
  const echo = typeof item.input === 'string' ? item.input : safeJson(item.input);
  if (echo === null || echo.length > MAX_INPUT_ECHO_CHARS) {
    bounded.input =
      typeof item.input === 'string'
        ? cut(item.input, MAX_INPUT_ECHO_CHARS)
        : '[too large to echo]';
  }
  if (item.ctx && (safeJson(item.ctx)?.length ?? Infinity) > MAX_INPUT_ECHO_CHARS) {
    bounded.ctx = { note: 'context too large to echo' };
  }
  return bounded;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}...`;
}

function safeJson(value: unknown): string | null {
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}
