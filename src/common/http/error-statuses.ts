/**
 * The error code of the envelope `{"error":{"code","message"}}` when nothing more specific
 * names the error: one upper-case code per HTTP status the server can answer.
 */
const CODES_BY_STATUS: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  411: 'LENGTH_REQUIRED',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  431: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
  503: 'SERVICE_UNAVAILABLE',
};

export function errorCodeOfStatus(status: number): string {
  return CODES_BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST');
}

/** A status the server answers for a client error Nest never sees, else 400. */
export function clientErrorStatus(status: unknown): number {
  return typeof status === 'number' && status >= 400 && status < 500 ? status : 400;
}
