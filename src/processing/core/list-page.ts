import { ApiError } from '../../common/api-error.js';

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
