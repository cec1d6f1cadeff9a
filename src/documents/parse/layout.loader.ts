import { loadParts, type PageReaders } from '../readers/document-parts.js';
import type { DocumentFileType, DocumentSource } from '../readers/document.types.js';
import { recognizeLayout, type OcrEffort } from '../readers/ocr.engine.js';
import type { PageRangeInput } from '../readers/page-range.js';
import { readPipeTables } from '../readers/pipe-tables.js';
import type { LayoutDocument, LayoutLine, LayoutPage, LineSegment } from './layout.types.js';
import { selectOperationPages } from './page-selection.js';
import type { ParsedDocument } from './parsed-layout.js';
import { linesFromOcr, openPdfLayout } from './pdf-layout.reader.js';

interface LayoutLoadOptions {
  /** `settings.page_range`; applies to PDF pages only. */
  pageRange?: PageRangeInput;
  /** How image pages are read (default `fast`; Deep Extract reads them `thorough`ly). */
  ocr?: OcrEffort;
}

/**
 * Markdown heading levels become larger text, so layout can type them as titles (HTML and
 * DOCX headings arrive with the same marks).
 */
function markdownHeading(line: string): { text: string; scale: number } {
  const match = /^(#{1,6})\s+(.*)$/.exec(line);
  if (!match) return { text: line, scale: 1 };
  return { text: match[2], scale: match[1].length === 1 ? 2 : 1.5 };
}

/** Estimated horizontal extent of text at a size (characters of about 0.9 % of the width). */
const textWidth = (text: string, scale: number) => text.length * 0.009 * scale;

/**
 * A table row drawn in equal columns across the page: a segment per cell (an empty cell
 * too), so layout finds the table as it does in a PDF's aligned columns.
 */
function tableRow(cells: readonly string[]): { text: string; segments: LineSegment[] } {
  const column = 0.9 / cells.length;
  const segments = cells.map((cell, i) => {
    const left = 0.05 + i * column;
    return { text: cell, left, right: left + Math.min(0.95 * column, textWidth(cell, 1)) };
  });
  return { text: cells.filter((cell) => cell !== '').join(' '), segments };
}

/**
 * Lines with estimated positions for formats without page geometry (DOCX, HTML, text):
 * one line per text line, stacked down the page, so blocks and citations still carry a
 * page and an order. Marked `synthetic`. Markdown (and HTML's and DOCX's text, written as
 * Markdown) has its headings set larger and its pipe tables drawn in columns.
 */
function syntheticPage(text: string, pageNumber: number, fileType: DocumentFileType): LayoutPage {
  const trimmed = text.split('\n').map((l) => l.trim());
  const raw = fileType === 'txt' ? trimmed.map((t) => ({ text: t })) : readPipeTables(trimmed);
  const lineHeight = Math.min(0.02, 0.9 / Math.max(1, raw.length));
  const lines: LayoutLine[] = [];
  raw.forEach((line, index) => {
    const top = 0.05 + index * lineHeight;
    if ('cells' in line) {
      // A row of empty cells says nothing, as a blank line does.
      if (line.cells.every((cell) => cell === '')) return;
      const row = tableRow(line.cells);
      const right = Math.max(...row.segments.map((segment) => segment.right));
      const bbox = { left: 0.05, top, width: right - 0.05, height: lineHeight * 0.8 };
      lines.push({
        ...row,
        bbox: { ...bbox, page: pageNumber },
        size: lineHeight * 0.6,
        words: [],
      });
      return;
    }
    if (line.text === '') return;
    const { text: content, scale } =
      fileType === 'txt' ? { text: line.text, scale: 1 } : markdownHeading(line.text);
    const width = Math.min(0.9, textWidth(content, scale));
    const bbox = { left: 0.05, top, width, height: lineHeight * 0.8, page: pageNumber };
    lines.push({
      text: content,
      bbox,
      size: lineHeight * 0.6 * scale,
      segments: [{ text: content, left: bbox.left, right: bbox.left + width }],
      words: [],
    });
  });
  return { pageNumber, source: 'native', lines, synthetic: true };
}

const layoutPageReaders = (ocrEffort: OcrEffort): PageReaders<LayoutPage> => ({
  async pdf(bytes, password) {
    const pdf = await openPdfLayout(bytes, password, ocrEffort);
    return { numPages: pdf.numPages, readPage: pdf.readPage, close: pdf.close };
  },
  async image(raster, pageNumber) {
    const ocr = await recognizeLayout(raster.pgm, ocrEffort);
    return {
      pageNumber,
      source: 'ocr',
      lines: linesFromOcr(
        ocr.lines,
        pageNumber,
        ocr.size?.width ?? raster.width,
        ocr.size?.height ?? raster.height,
      ),
      synthetic: false,
    };
  },
  // Headings and tables as Markdown writes them, which the synthetic page reads.
  marks: 'marked',
  text: (fileType, texts) => async (local, pageNumber) =>
    syntheticPage(texts[local - 1], pageNumber, fileType),
});

/**
 * Loads documents (concatenated in order, page numbers continuing across parts) as pages
 * of positioned lines (see `loadParts`). `page_range` selects PDF pages, at most
 * MAX_PARSE_PAGES of them; other types are always read whole, as for classification.
 */
export async function loadLayoutDocuments(
  sources: readonly DocumentSource[],
  options: LayoutLoadOptions = {},
): Promise<LayoutDocument> {
  return loadParts(sources, layoutPageReaders(options.ocr ?? 'fast'), (totalPages, isPdfPage) =>
    selectOperationPages(options.pageRange, totalPages, isPdfPage),
  );
}

export function loadLayoutDocument(
  bytes: Uint8Array,
  name?: string,
  options: LayoutLoadOptions = {},
): Promise<LayoutDocument> {
  return loadLayoutDocuments([{ bytes, name }], options);
}

/**
 * The document an operation works on: the one an earlier parse read (`parsed`, a
 * `jobid://` input, whose page selection stands), else the sources loaded now.
 */
export function layoutOf(
  sources: readonly DocumentSource[],
  parsed: ParsedDocument | undefined,
  options: LayoutLoadOptions = {},
): Promise<LayoutDocument> {
  if (parsed) return Promise.resolve(parsed.layout);
  return loadLayoutDocuments(sources, options);
}
