import { loadImage } from '@napi-rs/canvas';
import { CorruptDocumentError, UnsupportedDocumentError } from '../readers/document.errors.js';
import type { DocumentFileType, DocumentSource } from '../readers/document.types.js';
import { docxPages } from '../readers/docx.reader.js';
import { decodeText, detectDocumentType } from '../readers/file-type.detector.js';
import { htmlToText } from '../readers/html.reader.js';
import { recognizeLayout } from '../readers/ocr.engine.js';
import type { PageRangeInput } from '../readers/page-range.js';
import { textPages } from '../readers/text.reader.js';
import { checkDocumentInput, checkPageCount } from '../readers/input-limits.js';
import type { LayoutDocument, LayoutLine, LayoutPage } from './layout.types.js';
import { selectOperationPages } from './page-selection.js';
import { linesFromOcr, openPdfLayout } from './pdf-layout.reader.js';

export interface LayoutLoadOptions {
  /** `settings.page_range`; applies to PDF pages only. */
  pageRange?: PageRangeInput;
  /** Cap on the number of PDF pages read in one request. */
  maxPages?: number;
}

export const DEFAULT_MAX_OPERATION_PAGES = 500;

interface OpenedPart {
  fileType: DocumentFileType;
  totalPages: number;
  readPage(localPage: number, documentPage: number): Promise<LayoutPage>;
  close(): Promise<void>;
}

/** Markdown heading levels become larger text, so layout can type them as titles. */
function markdownHeading(line: string): { text: string; scale: number } {
  const match = /^(#{1,6})\s+(.*)$/.exec(line);
  if (!match) return { text: line, scale: 1 };
  return { text: match[2], scale: match[1].length === 1 ? 2 : 1.5 };
}

/**
 * Lines with estimated positions for formats without page geometry (DOCX, HTML, text):
 * one line per text line, stacked down the page, so blocks and citations still carry a
 * page and an order. Marked `synthetic`.
 */
export function syntheticPage(
  text: string,
  pageNumber: number,
  fileType: DocumentFileType,
): LayoutPage {
  const raw = text.split('\n').map((l) => l.trim());
  const lineHeight = Math.min(0.02, 0.9 / Math.max(1, raw.length));
  const lines: LayoutLine[] = [];
  raw.forEach((line, index) => {
    if (line === '') return;
    const { text: content, scale } =
      fileType === 'md' ? markdownHeading(line) : { text: line, scale: 1 };
    const width = Math.min(0.9, content.length * 0.009 * scale);
    const bbox = {
      left: 0.05,
      top: 0.05 + index * lineHeight,
      width,
      height: lineHeight * 0.8,
      page: pageNumber,
    };
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

function textPart(fileType: DocumentFileType, texts: string[]): OpenedPart {
  return {
    fileType,
    totalPages: texts.length,
    readPage: async (local, documentPage) =>
      syntheticPage(texts[local - 1], documentPage, fileType),
    close: async () => undefined,
  };
}

async function openPart(source: DocumentSource): Promise<OpenedPart> {
  const { fileType } = await detectDocumentType(source.bytes, source.name);
  await checkDocumentInput(source.bytes, fileType);
  switch (fileType) {
    case 'pdf': {
      const pdf = await openPdfLayout(source.bytes);
      return { fileType, totalPages: pdf.numPages, readPage: pdf.readPage, close: pdf.close };
    }
    case 'docx':
      return textPart(fileType, await docxPages(source.bytes));
    case 'image': {
      let page: (documentPage: number) => LayoutPage;
      try {
        const image = await loadImage(Buffer.from(source.bytes));
        const ocr = await recognizeLayout(source.bytes);
        page = (documentPage) => ({
          pageNumber: documentPage,
          source: 'ocr',
          lines: linesFromOcr(ocr.lines, documentPage, image.width, image.height),
          synthetic: false,
        });
      } catch (error) {
        throw new CorruptDocumentError(
          'image',
          `The image cannot be read: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      return {
        fileType,
        totalPages: 1,
        readPage: async (_l, d) => page(d),
        close: async () => undefined,
      };
    }
    case 'html':
    case 'md':
    case 'txt': {
      const text = decodeText(source.bytes);
      if (text === undefined) throw new UnsupportedDocumentError('The document is not text');
      return textPart(fileType, fileType === 'html' ? [htmlToText(text)] : textPages(text));
    }
  }
}

/**
 * Loads documents (concatenated in order, page numbers continuing across parts) as pages
 * of positioned lines. `page_range` selects PDF pages; other types are always read whole,
 * as for classification.
 */
export async function loadLayoutDocuments(
  sources: readonly DocumentSource[],
  options: LayoutLoadOptions = {},
): Promise<LayoutDocument> {
  if (sources.length === 0) throw new UnsupportedDocumentError('No document was given');
  const parts: OpenedPart[] = [];
  try {
    for (const source of sources) parts.push(await openPart(source));
    const totalPages = parts.reduce((sum, part) => sum + part.totalPages, 0);
    checkPageCount(totalPages);
    const hasPdf = parts.some((part) => part.fileType === 'pdf');
    const selected = new Set(
      hasPdf
        ? selectOperationPages(
            options.pageRange,
            totalPages,
            options.maxPages ?? DEFAULT_MAX_OPERATION_PAGES,
          )
        : [],
    );
    const pages: LayoutPage[] = [];
    let offset = 0;
    for (const part of parts) {
      for (let local = 1; local <= part.totalPages; local++) {
        const documentPage = offset + local;
        if (part.fileType === 'pdf' && !selected.has(documentPage)) continue;
        pages.push(await part.readPage(local, documentPage));
      }
      offset += part.totalPages;
    }
    return { fileType: parts[0].fileType, totalPages, pages };
  } finally {
    await Promise.all(parts.map((part) => part.close().catch(() => undefined)));
  }
}

export function loadLayoutDocument(
  bytes: Uint8Array,
  name?: string,
  options: LayoutLoadOptions = {},
): Promise<LayoutDocument> {
  return loadLayoutDocuments([{ bytes, name }], options);
}
