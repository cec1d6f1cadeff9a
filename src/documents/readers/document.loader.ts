import { CorruptDocumentError, UnsupportedDocumentError } from './document.errors.js';
import type {
  DocumentFileType,
  DocumentPage,
  DocumentSource,
  LoadedDocument,
} from './document.types.js';
import { docxPages } from './docx.reader.js';
import { decodeText, detectDocumentType } from './file-type.detector.js';
import { htmlToText } from './html.reader.js';
import { checkDocumentInput, checkPageCount } from './input-limits.js';
import { recognizeImage } from './ocr.engine.js';
import { selectPages, type PageRangeInput } from './page-range.js';
import { openPdf, type ExtractedPage } from './pdf.reader.js';
import { textPages } from './text.reader.js';

export interface LoadOptions {
  /** The request's `page_range`; applies to PDF pages only. */
  pageRange?: PageRangeInput;
}

/** A document opened far enough to know its page count; pages are read on demand. */
interface OpenedPart {
  fileType: DocumentFileType;
  totalPages: number;
  readPage(pageNumber: number): Promise<ExtractedPage>;
  close(): Promise<void>;
}

function nativePages(fileType: DocumentFileType, texts: string[]): OpenedPart {
  return {
    fileType,
    totalPages: texts.length,
    readPage: async (pageNumber) => ({ text: texts[pageNumber - 1], source: 'native' }),
    close: async () => undefined,
  };
}

async function openPart(source: DocumentSource): Promise<OpenedPart> {
  const { fileType } = await detectDocumentType(source.bytes, source.name);
  await checkDocumentInput(source.bytes, fileType);
  switch (fileType) {
    case 'pdf': {
      const pdf = await openPdf(source.bytes);
      return { fileType, totalPages: pdf.numPages, readPage: pdf.readPage, close: pdf.close };
    }
    case 'docx':
      return nativePages(fileType, await docxPages(source.bytes));
    case 'image': {
      let text: string;
      try {
        text = (await recognizeImage(source.bytes)).trim();
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
        readPage: async () => ({ text, source: 'ocr' }),
        close: async () => undefined,
      };
    }
    case 'html':
    case 'md':
    case 'txt': {
      const text = decodeText(source.bytes);
      if (text === undefined) throw new UnsupportedDocumentError('The document is not text');
      return nativePages(fileType, fileType === 'html' ? [htmlToText(text)] : textPages(text));
    }
  }
}

async function readPage(part: OpenedPart, pageNumber: number): Promise<ExtractedPage> {
  try {
    return await part.readPage(pageNumber);
  } catch (error) {
    if (error instanceof CorruptDocumentError || error instanceof UnsupportedDocumentError) {
      throw error;
    }
    throw new CorruptDocumentError(
      part.fileType,
      `Page ${pageNumber} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

/**
 * Loads one or more documents as one, in order: page numbers continue across parts.
 *
 * `page_range` applies to PDF pages, numbered in the combined document (for a single PDF
 * that is simply its own numbering); pages of other types are always kept, as the spec
 * ignores `page_range` for them. Only selected PDF pages are parsed or OCR'd.
 *
 * Throws UnsupportedDocumentError, CorruptDocumentError, PageSelectionError or
 * DocumentLimitError (checked before the part it concerns is decoded).
 */
export async function loadDocuments(
  sources: readonly DocumentSource[],
  options: LoadOptions = {},
): Promise<LoadedDocument> {
  if (sources.length === 0) throw new UnsupportedDocumentError('No document was given');
  const parts: OpenedPart[] = [];
  try {
    for (const source of sources) parts.push(await openPart(source));
    const totalPages = parts.reduce((sum, part) => sum + part.totalPages, 0);
    checkPageCount(totalPages);
    const hasPdf = parts.some((part) => part.fileType === 'pdf');
    const selected = new Set(hasPdf ? selectPages(options.pageRange, totalPages) : []);

    const pages: DocumentPage[] = [];
    let offset = 0;
    for (const part of parts) {
      for (let local = 1; local <= part.totalPages; local++) {
        const pageNumber = offset + local;
        if (part.fileType === 'pdf' && !selected.has(pageNumber)) continue;
        const { text, source } = await readPage(part, local);
        pages.push({ pageNumber, text, source });
      }
      offset += part.totalPages;
    }
    return { fileType: parts[0].fileType, totalPages, pages };
  } finally {
    await Promise.all(parts.map((part) => part.close().catch(() => undefined)));
  }
}

/** Loads a single document. `name` is a file name or extension hint (e.g. `notes.md`). */
export function loadDocument(
  bytes: Uint8Array,
  name?: string,
  options: LoadOptions = {},
): Promise<LoadedDocument> {
  return loadDocuments([{ bytes, name }], options);
}

/** Concatenates loaded documents in order; page numbers continue across them. */
export function concatDocuments(documents: readonly LoadedDocument[]): LoadedDocument {
  if (documents.length === 0) throw new UnsupportedDocumentError('No document was given');
  const pages: DocumentPage[] = [];
  let offset = 0;
  for (const document of documents) {
    for (const page of document.pages) {
      pages.push({ ...page, pageNumber: offset + page.pageNumber });
    }
    offset += document.totalPages;
  }
  return { fileType: documents[0].fileType, totalPages: offset, pages };
}
