import { HttpException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../api-error.js';

/** What the multipart parser (busboy) throws on a truncated or malformed body. */
const MULTIPART_PARSE_ERROR = /multipart|unexpected end of|malformed|boundary|part header/i;

/**
 * A multipart body the parser could not read (truncated, no boundary, a malformed part
 * header) is the client's error, wherever in a handler the parts were being read: 400
 * `MALFORMED_MULTIPART` naming the parser's reason. Null for anything else.
 */
export function malformedBodyError(thrown: unknown, request: FastifyRequest): ApiError | null {
  if (!(thrown instanceof Error) || thrown instanceof HttpException) return null;
  if (typeof (thrown as { statusCode?: unknown }).statusCode === 'number') return null;
  const contentType = String(request.headers['content-type'] ?? '').toLowerCase();
  if (!contentType.startsWith('multipart/')) return null;
  const fromParser =
    MULTIPART_PARSE_ERROR.test(thrown.message) || (thrown.stack ?? '').includes('busboy');
  if (!fromParser) return null;
  return ApiError.badRequest(
    'MALFORMED_MULTIPART',
    `The multipart body could not be read: ${thrown.message}`,
  );
}
