import { PageSelectionError } from '../readers/document.errors.js';
import { documentLimits, documentLimitSetting } from '../readers/document-limits.js';
import { toSpans, type PageRangeInput } from '../readers/page-range.js';

/**
 * Pages of a `totalPages`-page PDF that parse/extract/split process. Unlike classification
 * (first 5 by default, at most 10), these operations read the whole document by default,
 * as the reductoai SDK documents; MAX_PARSE_PAGES caps the selection, so a request reads
 * no more than an executor holds (MAX_DOCUMENT_PAGES, checked first, caps the documents).
 * The shapes and 1-indexed bounds of `page_range` are parsed by the one page-range reader.
 * Of documents given together, only the pages of PDFs (`isPdfPage`, numbered across the
 * documents) count against the cap: the others are read whole whatever is selected.
 */
export function selectOperationPages(
  input: PageRangeInput,
  totalPages: number,
  isPdfPage: (page: number) => boolean = () => true,
): number[] {
  const maxPages = documentLimits().maxParsePages;
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
  const pdfPages = [...selected].filter(isPdfPage).length;
  if (pdfPages > maxPages) {
    const setting = documentLimitSetting('maxParsePages');
    throw new PageSelectionError(
      'too_many_pages',
      `At most ${maxPages} PDF pages are read in one request (limit ${setting}=${maxPages}); ` +
        `${pdfPages} are selected: select at most ${maxPages} with page_range`,
      input,
      { limit: maxPages, selected: pdfPages, setting },
    );
  }
  return [...selected].sort((a, b) => a - b);
}
