import { CorruptDocumentError, UnsupportedDocumentError } from './document.errors.js';
import { csvPages } from './csv.reader.js';
import type { DocumentFileType, DocumentSource, PageSize } from './document.types.js';
import { docxPages } from './docx.reader.js';
import { DocumentLimitError } from './document-limits.js';
import { decodeText, detectDocumentType } from './file-type.detector.js';
import { plainLetters } from './glyph-text.js';
import { htmlToText, type StructureMarks } from './html.reader.js';
import { markdownSource, markdownText } from './markdown-text.js';
import { openImage, type RasterImage } from './image.decoder.js';
import { checkDocumentInput, checkPageCount } from './input-limits.js';
import { officePageText, type OfficePage } from './office-blocks.js';
import { pptxPages } from './pptx.reader.js';
import { restructuredText } from './restructured-text.js';
import { textPages } from './text.reader.js';
import { xlsxPages } from './xlsx.reader.js';

/** Reads one page: its number within its part (1-based) and within the combined document. */
type PageReader<P> = (localPage: number, documentPage: number) => Promise<P>;

/** A document opened far enough to know its page count; pages are read on demand. */
interface OpenedPart<P> {
  fileType: DocumentFileType;
  totalPages: number;
  readPage: PageReader<P>;
  close(): Promise<void>;
}

/**
 * How a loader turns each kind of input into its own page type (plain text for
 * classification, positioned lines for parse/extract/split). Detection, input limits,
 * page selection and the errors named in 4xx answers are shared (`loadParts`).
 */
export interface PageReaders<P> {
  pdf(
    bytes: Uint8Array,
    password?: string,
  ): Promise<{
    numPages: number;
    readPage: PageReader<P>;
    close(): Promise<void>;
  }>;
  /** One decoded page of an image (a TIFF has several); throws when it cannot be recognized. */
  image(raster: RasterImage, documentPage: number): Promise<P>;
  /**
   * DOCX, PPTX, XLSX, CSV, HTML, Markdown and plain text, already split into page texts;
   * `sizes[i]`, when known, is the size of page i + 1 (a slide's).
   */
  text(
    fileType: DocumentFileType,
    texts: string[],
    sizes?: (PageSize | undefined)[],
  ): PageReader<P>;
  /** How the headings, lists and tables of DOCX, HTML, slides and sheets are written in those texts. */
  marks: StructureMarks;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The pages of a slide deck, workbook or CSV file (`fileType` one of those). */
async function officePages(
  fileType: DocumentFileType,
  source: DocumentSource,
): Promise<OfficePage[]> {
  if (fileType === 'pptx') return pptxPages(source.bytes);
  if (fileType === 'xlsx') return xlsxPages(source.bytes);
  const text = decodeText(source.bytes);
  if (text === undefined) throw new UnsupportedDocumentError('The CSV file is not text');
  const name = (source.name ?? '').toLowerCase();
  return csvPages(text, name.endsWith('tsv') || name.endsWith('tab'));
}

/**
 * The page texts of HTML, Markdown and plain text. Markdown read for its words (`plain`)
 * loses its link targets and marks as rendered (markdown-text.ts); read for its layout
 * (`marked`) it stays as written, the marks layout reads headings and tables by, less what a
 * renderer never shows (front matter's settings, comments, lines of HTML tags only). Plain
 * text written in reStructuredText loses its explicit markup (restructured-text.ts).
 */
function readText(fileType: 'html' | 'md' | 'txt', text: string, marks: StructureMarks): string[] {
  if (fileType === 'html') return [htmlToText(text, marks)];
  const pages = textPages(text);
  if (fileType === 'md') return pages.map(marks === 'plain' ? markdownText : markdownSource);
  return pages.map((page) => restructuredText(page).trim());
}

async function openPart<P>(
  source: DocumentSource,
  readers: PageReaders<P>,
): Promise<OpenedPart<P>> {
  const { fileType } = await detectDocumentType(source.bytes, source.name, source.contentType);
  await checkDocumentInput(source.bytes, fileType);
  const withoutResources = { close: async () => undefined };
  switch (fileType) {
    case 'pdf': {
      const pdf = await readers.pdf(source.bytes, source.password);
      return { fileType, totalPages: pdf.numPages, readPage: pdf.readPage, close: pdf.close };
    }
    case 'docx': {
      const texts = (await docxPages(source.bytes, readers.marks)).map(plainLetters);
      return {
        fileType,
        totalPages: texts.length,
        readPage: readers.text(fileType, texts),
        ...withoutResources,
      };
    }
    case 'pptx':
    case 'xlsx':
    case 'csv': {
      const pages = await officePages(fileType, source);
      return {
        fileType,
        totalPages: pages.length,
        readPage: readers.text(
          fileType,
          pages.map((page) => plainLetters(officePageText(page.blocks, readers.marks))),
          pages.map((page) => page.size),
        ),
        ...withoutResources,
      };
    }
    case 'image': {
      const image = await openImage(source.bytes);
      return {
        fileType,
        totalPages: image.pages,
        readPage: async (local, documentPage) =>
          readers.image(await image.page(local - 1), documentPage),
        ...withoutResources,
      };
    }
    case 'html':
    case 'md':
    case 'txt': {
      const text = decodeText(source.bytes);
      if (text === undefined) throw new UnsupportedDocumentError('The document is not text');
      const texts = readText(fileType, text, readers.marks).map(plainLetters);
      return {
        fileType,
        totalPages: texts.length,
        readPage: readers.text(fileType, texts),
        ...withoutResources,
      };
    }
  }
}

async function readPage<P>(
  part: OpenedPart<P>,
  localPage: number,
  documentPage: number,
): Promise<P> {
  try {
    return await part.readPage(localPage, documentPage);
  } catch (error) {
    if (
      error instanceof CorruptDocumentError ||
      error instanceof UnsupportedDocumentError ||
      error instanceof DocumentLimitError
    ) {
      throw error;
    }
    throw new CorruptDocumentError(
      part.fileType,
      `Page ${localPage} cannot be read: ${describe(error)}`,
      {
        cause: error,
      },
    );
  }
}

/**
 * Loads one or more documents as one, in order: page numbers continue across parts.
 *
 * `selectPdfPages` picks PDF pages, numbered in the combined document (for a single PDF
 * that is simply its own numbering); pages of other types are always kept, as the spec
 * ignores `page_range` for them. Only selected PDF pages are read or OCR'd.
 *
 * Throws UnsupportedDocumentError, CorruptDocumentError, PageSelectionError or
 * DocumentLimitError (checked before the part it concerns is decoded).
 */
export async function loadParts<P>(
  sources: readonly DocumentSource[],
  readers: PageReaders<P>,
  selectPdfPages: (totalPages: number, isPdfPage: (page: number) => boolean) => Iterable<number>,
): Promise<{ fileType: DocumentFileType; totalPages: number; pages: P[] }> {
  if (sources.length === 0) throw new UnsupportedDocumentError('No document was given');
  const parts: OpenedPart<P>[] = [];
  try {
    for (const source of sources) {
      const part = await openPart(source, readers);
      parts.push(part);
      // Nothing to read (a PDF whose page tree is empty): refused rather than answered and
      // billed as if it had a page.
      if (part.totalPages === 0) {
        throw new UnsupportedDocumentError(`The ${part.fileType} document has no pages`);
      }
    }
    const totalPages = parts.reduce((sum, part) => sum + part.totalPages, 0);
    checkPageCount(totalPages);
    const hasPdf = parts.some((part) => part.fileType === 'pdf');
    const isPdfPage = (documentPage: number) => {
      let offset = 0;
      for (const part of parts) {
        if (documentPage <= offset + part.totalPages) return part.fileType === 'pdf';
        offset += part.totalPages;
      }
      return false;
    };
    const selected = new Set(hasPdf ? selectPdfPages(totalPages, isPdfPage) : []);

    const pages: P[] = [];
    let offset = 0;
    for (const part of parts) {
      for (let local = 1; local <= part.totalPages; local++) {
        const documentPage = offset + local;
        if (part.fileType === 'pdf' && !selected.has(documentPage)) continue;
        pages.push(await readPage(part, local, documentPage));
      }
      offset += part.totalPages;
    }
    return { fileType: parts[0].fileType, totalPages, pages };
  } finally {
    await Promise.all(parts.map((part) => part.close().catch(() => undefined)));
  }
}
