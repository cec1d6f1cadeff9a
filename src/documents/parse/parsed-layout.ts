import type { DocumentPage } from '../readers/document.types.js';
import { classificationText } from '../readers/line-hyphenation.js';
import { DEFAULT_SELECTED_PAGES, selectPages, type PageRangeInput } from '../readers/page-range.js';
import type { LayoutDocument } from './layout.types.js';
import { pageText } from './layout.types.js';
import type { ParseResult } from './parse.operation.js';

/**
 * A document an earlier parse job already read (a `jobid://` input): its positioned lines,
 * as the parse read them, so extract, split, classify and pipelines skip reading the
 * document again. The parse job's page selection stands: as the reductoai SDK documents,
 * parse options of a request on a `jobid://` input are ignored.
 */
export interface ParsedDocument {
  /** The `jobid://` reference it came from (for messages). */
  name: string;
  layout: LayoutDocument;
}

/**
 * The page texts classification reads, from a parsed document: classification's own page
 * selection (at most 10) over the pages the parse read; without `page_range`, the first 5
 * pages the parse read (pages 1-5 for a parse of the whole document, as on the original).
 */
export function classificationPages(
  layout: LayoutDocument,
  pageRange: PageRangeInput,
): { fileType: LayoutDocument['fileType']; totalPages: number; pages: DocumentPage[] } {
  const chosen =
    pageRange === null || pageRange === undefined
      ? layout.pages.slice(0, layout.fileType === 'pdf' ? DEFAULT_SELECTED_PAGES : undefined)
      : layout.fileType === 'pdf'
        ? pagesIn(layout, new Set(selectPages(pageRange, layout.totalPages)))
        : layout.pages;
  // Read as the loader of a document's own pages reads them (soft hyphens joined).
  const pages = chosen.map((page) => ({
    pageNumber: page.pageNumber,
    text: classificationText(pageText(page)),
    source: page.source,
  }));
  return { fileType: layout.fileType, totalPages: layout.totalPages, pages };
}

/**
 * A layout rebuilt from a parse result's blocks, for a parse job whose read lines were not
 * kept: one line per block, at the block's box. Coarser than the lines the parse read (no
 * table cells, no words), so answers may differ a little from the original input.
 */
export function layoutFromParseResult(
  result: ParseResult,
  fileType: LayoutDocument['fileType'],
  totalPages: number,
): LayoutDocument {
  const pages = new Map<number, LayoutDocument['pages'][number]>();
  for (const chunk of result.chunks) {
    for (const block of chunk.blocks) {
      const number = block.bbox.page;
      let page = pages.get(number);
      if (!page) {
        page = { pageNumber: number, source: 'text-layer', lines: [], synthetic: false };
        pages.set(number, page);
      }
      for (const text of block.content.split('\n')) {
        if (text.trim() === '') continue;
        const bbox = { ...block.bbox };
        page.lines.push({
          text,
          bbox,
          size: bbox.height,
          segments: [{ text, left: bbox.left, right: bbox.left + bbox.width }],
          words: [],
        });
      }
    }
  }
  return {
    fileType,
    totalPages,
    pages: [...pages.values()].sort((a, b) => a.pageNumber - b.pageNumber),
  };
}

function pagesIn(layout: LayoutDocument, numbers: ReadonlySet<number>): LayoutDocument['pages'] {
  return layout.pages.filter((page) => numbers.has(page.pageNumber));
}
