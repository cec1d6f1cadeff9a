import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { ApiError } from '../../common/api-error.js';
import { RequestValidationError, type ValidationErrorItem } from '../../common/validation-error.js';

/**
 * Stored bodies one page of a listing (`GET /jobs`' requests, `GET /pipelines`'
 * definitions) holds at most, besides its first row: each may be megabytes, and a page of
 * them was held in the server's memory whole.
 */
export const LIST_PAGE_BYTES = 4 * 1024 * 1024;

/** LIST_PAGE_BYTES as the API description states it. */
export const LIST_PAGE_SIZE_TEXT = `${LIST_PAGE_BYTES / (1024 * 1024)} MiB`;

/**
 * How many of `rows`, in order, a page takes: while their sizes add up to at most
 * `maxBytes`, and always the first. Sizes are asked row by row, so rows past the cut are
 * never measured.
 */
export async function rowsWithinPage<T>(
  rows: readonly T[],
  sizeOf: (row: T) => number | Promise<number>,
  maxBytes: number = LIST_PAGE_BYTES,
): Promise<number> {
  let taken = 0;
  let bytes = 0;
  for (const row of rows) {
    const size = await sizeOf(row);
    if (taken > 0 && bytes + size > maxBytes) break;
    bytes += size;
    taken++;
  }
  return taken;
}

/** Where a listing's page ended: the last row's creation time (microseconds) and its id. */
export interface PageCursor {
  createdAtMicros: bigint;
  id: string;
}

/** The `next_cursor` of a listing ordered by creation time, then id. */
export function encodePageCursor({ createdAtMicros, id }: PageCursor): string {
  return Buffer.from(`${createdAtMicros}|${id}`).toString('base64url');
}

/** A `cursor` back from a client; 400 for one no listing returned. */
export function decodePageCursor(cursor: string): PageCursor {
  const [micros, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!/^\d+$/.test(micros ?? '') || !id) {
    throw ApiError.badRequest('INVALID_CURSOR', 'cursor is not one this service returned');
  }
  return { createdAtMicros: BigInt(micros), id };
}

/** A listing's `limit`: the most rows one page holds, and how many when the client names none. */
export const PAGE_LIMIT = { minimum: 1, maximum: 500, default: 100 } as const;

/** A listing's `limit` query value, or the 422 issue that refuses it. */
export function readPageLimit(raw: unknown): { limit: number } | { issue: ValidationErrorItem } {
  if (raw === undefined) return { limit: PAGE_LIMIT.default };
  const text = String(raw);
  if (!/^-?\d+$/.test(text)) {
    return {
      issue: {
        loc: ['query', 'limit'],
        type: 'int_parsing',
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: raw,
      },
    };
  }
  const limit = Number(text);
  if (limit < PAGE_LIMIT.minimum || limit > PAGE_LIMIT.maximum) {
    return {
      issue: {
        loc: ['query', 'limit'],
        type: limit < PAGE_LIMIT.minimum ? 'greater_than_equal' : 'less_than_equal',
        msg: `Input should be between ${PAGE_LIMIT.minimum} and ${PAGE_LIMIT.maximum}`,
        input: raw,
        ctx: { ge: PAGE_LIMIT.minimum, le: PAGE_LIMIT.maximum },
      },
    };
  }
  return { limit };
}

/** A listing's `cursor` query value: `null` for the first page. */
export function readPageCursorText(raw: unknown): string | null {
  return typeof raw === 'string' && raw !== '' ? raw : null;
}

/** A listing's `limit` and `cursor` query values; a `limit` out of its bounds is a 422. */
export function readPageQuery(query: Record<string, unknown>): {
  limit: number;
  cursor: string | null;
} {
  const limit = readPageLimit(query.limit);
  if ('issue' in limit) throw new RequestValidationError([limit.issue]);
  return { limit: limit.limit, cursor: readPageCursorText(query.cursor) };
}

/** The `limit` and `cursor` query parameters of a listing, as the description states them. */
export function ApiPageQuery(): MethodDecorator {
  return applyDecorators(
    ApiQuery({
      name: 'limit',
      required: false,
      schema: { type: 'integer', ...PAGE_LIMIT },
    }),
    ApiQuery({
      name: 'cursor',
      required: false,
      schema: { type: 'string' },
      description: '`next_cursor` of the previous page',
    }),
  );
}
