import { PageSelectionError } from '../readers/document.errors.js';
import { toSpans, type PageRangeInput } from '../readers/page-range.js';

/**
 * Pages of a `totalPages`-page PDF that parse/extract/split process. Unlike classification
 * (first 5 by default, at most 10), these operations read the whole document by default,
 * as the reductoai SDK documents; `maxPages` caps the selection (configurable). The shapes
 * and 1-indexed bounds of `page_range` are parsed by the one page-range reader.
 */
export function selectOperationPages(
  input: PageRangeInput,
  totalPages: number,
  maxPages: number,
): number[] {
  const spans = toSpans(input) ?? [{ start: 1, end: totalPages }];
  const selected = new Set<number>();
  for (const { start, end } of spans) {
    for (let p = start; p <= Math.min(end, totalPages); p++) selected.add(p);
  }
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
