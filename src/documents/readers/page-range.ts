import { PageSelectionError, TooManyPagesSelectedError } from './document.errors.js';

/** The spec's PageRange: 1-indexed, inclusive; a missing or null end is open. */
interface PageRange {
  start?: number | null;
  end?: number | null;
}

/** The spec's `page_range`: PageRange, array of PageRange, array of integers, or null. */
export type PageRangeInput =
  PageRange | readonly PageRange[] | readonly number[] | null | undefined;

/** Pages processed when `page_range` is null or absent. */
export const DEFAULT_SELECTED_PAGES = 5;
/** At most this many pages may be selected. */
export const MAX_SELECTED_PAGES = 10;

interface Span {
  start: number;
  /** Infinity for an open end. */
  end: number;
}

function invalid(message: string, input: unknown): PageSelectionError {
  return new PageSelectionError('invalid_page_range', message, input);
}

function checkPage(value: unknown, what: string, input: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw invalid(`${what} must be an integer`, input);
  }
  if (value < 1) throw invalid(`${what} must be at least 1 (pages are 1-indexed)`, input);
  return value;
}

/** Turns any accepted `page_range` shape into inclusive spans; null means "the default". */
export function toSpans(input: PageRangeInput): Span[] | null {
  if (input === null || input === undefined) return null;
  const items: readonly unknown[] = Array.isArray(input) ? input : [input];
  // An empty list selects nothing explicitly; treating it as "not given" is kinder than a 422.
  if (items.length === 0) return null;
  return items.map((item, index) => {
    const what = Array.isArray(input) ? `page_range[${index}]` : 'page_range';
    if (typeof item === 'number') {
      const page = checkPage(item, what, input) as number;
      return { start: page, end: page };
    }
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw invalid(`${what} must be a page number or an object with start/end`, input);
    }
    const range = item as PageRange;
    const start = checkPage(range.start, `${what}.start`, input) ?? 1;
    const end = checkPage(range.end, `${what}.end`, input) ?? Infinity;
    if (start > end) throw invalid(`${what}.start (${start}) is after its end (${end})`, input);
    return { start, end };
  });
}

function countUnion(spans: Span[]): number {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let count = 0;
  let coveredTo = 0;
  for (const { start, end } of sorted) {
    const from = Math.max(start, coveredTo + 1);
    if (end >= from) {
      count += end - from + 1;
      coveredTo = end;
    }
  }
  return count;
}

/**
 * Pages a `page_range` selects at least, before the document is known: closed ranges and
 * single pages count in full, an open-ended range counts its one known page (its end may
 * fall inside the document). The HTTP layer's 422 and the loader's check both use it.
 */
export function countRequestedPages(input: PageRangeInput): number {
  const spans = toSpans(input);
  if (spans === null) return 0;
  return countUnion(
    spans.map((span) =>
      Number.isFinite(span.end) ? span : { start: span.start, end: span.start },
    ),
  );
}

/**
 * Validates `page_range` without the document: integer, 1-indexed values, start <= end, and
 * no more than MAX_SELECTED_PAGES requested (countRequestedPages). Lets the HTTP layer answer
 * 422 before any download; selectPages checks the selection again against the document.
 */
export function validatePageRange(input: PageRangeInput): void {
  const count = countRequestedPages(input);
  if (count > MAX_SELECTED_PAGES) {
    throw new TooManyPagesSelectedError(count, MAX_SELECTED_PAGES, input);
  }
}

/**
 * The 1-indexed pages of a `totalPages`-page PDF that `page_range` selects, ascending and
 * without duplicates. Pages beyond the document are dropped; a selection that keeps none, or
 * more than MAX_SELECTED_PAGES, is a PageSelectionError. Null selects the first
 * DEFAULT_SELECTED_PAGES pages.
 */
export function selectPages(input: PageRangeInput, totalPages: number): number[] {
  validatePageRange(input);
  const spans = toSpans(input) ?? [{ start: 1, end: DEFAULT_SELECTED_PAGES }];
  const clipped = spans
    .map((span) => ({ start: span.start, end: Math.min(span.end, totalPages) }))
    .filter((span) => span.start <= span.end);
  const count = countUnion(clipped);
  if (count > MAX_SELECTED_PAGES) {
    throw new TooManyPagesSelectedError(count, MAX_SELECTED_PAGES, input);
  }
  if (count === 0) {
    throw new PageSelectionError(
      'no_pages_selected',
      `page_range selects no page of a document with ${totalPages} page(s)`,
      input,
      { total_pages: totalPages },
    );
  }
  const pages = new Set<number>();
  for (const { start, end } of clipped) for (let page = start; page <= end; page++) pages.add(page);
  return [...pages].sort((a, b) => a - b);
}
