import { PageSelectionError } from '../readers/document.errors.js';
import type { PageRange, PageRangeInput } from '../readers/page-range.js';

function invalid(message: string, input: unknown): PageSelectionError {
  return new PageSelectionError('invalid_page_range', message, input);
}

function page(value: unknown, what: string, input: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw invalid(`${what} must be an integer`, input);
  if (value < 1) throw invalid(`${what} must be at least 1 (pages are 1-indexed)`, input);
  return value;
}

/**
 * Pages of a `totalPages`-page PDF that parse/extract/split process. Unlike classification
 * (first 5 by default, at most 10), these operations read the whole document by default,
 * as the reductoai SDK documents; `maxPages` caps the selection (configurable).
 */
export function selectOperationPages(
  input: PageRangeInput,
  totalPages: number,
  maxPages: number,
): number[] {
  const items: readonly unknown[] =
    input === null || input === undefined ? [] : Array.isArray(input) ? input : [input];
  const selected = new Set<number>();
  if (items.length === 0) {
    for (let p = 1; p <= totalPages; p++) selected.add(p);
  }
  items.forEach((item, index) => {
    const what = Array.isArray(input) ? `page_range[${index}]` : 'page_range';
    if (typeof item === 'number') {
      const p = page(item, what, input) as number;
      if (p <= totalPages) selected.add(p);
      return;
    }
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw invalid(`${what} must be a page number or an object with start/end`, input);
    }
    const range = item as PageRange;
    const start = page(range.start, `${what}.start`, input) ?? 1;
    const end = page(range.end, `${what}.end`, input) ?? totalPages;
    if (start > end) throw invalid(`${what}.start (${start}) is after its end (${end})`, input);
    for (let p = start; p <= Math.min(end, totalPages); p++) selected.add(p);
  });
  if (selected.size === 0) {
    throw new PageSelectionError(
      'no_pages_selected',
      `page_range selects no page of a document with ${totalPages} page(s)`,
      input,
      { total_pages: totalPages },
    );
  }
  if (selected.size > maxPages) {
    throw new PageSelectionError(
      'too_many_pages',
      `At most ${maxPages} pages can be processed in one request; ${selected.size} are selected`,
      input,
      { limit: maxPages, selected: selected.size },
    );
  }
  return [...selected].sort((a, b) => a - b);
}
