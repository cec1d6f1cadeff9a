/**
 * Stored bodies one page of a listing (`GET /jobs`' requests, `GET /pipelines`'
 * definitions) holds at most, besides its first row: each may be megabytes, and a page of
 * them was held in the server's memory whole.
 */
export const LIST_PAGE_BYTES = 4 * 1024 * 1024;

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
