import { loadParts, type PageReaders } from './document-parts.js';
import { classificationText } from './line-hyphenation.js';
import { UnsupportedDocumentError } from './document.errors.js';
import type { DocumentPage, DocumentSource, LoadedDocument } from './document.types.js';
import { recognizeImage, type OcrEffort } from './ocr.engine.js';
import { selectPages, type PageRangeInput } from './page-range.js';
import { openPdf } from './pdf.reader.js';

interface LoadOptions {
  /** The request's `page_range`; applies to PDF pages only. */
  pageRange?: PageRangeInput;
  /** How hard to read images and image-only PDF pages; `fast` unless given. */
  ocr?: OcrEffort;
}

const textPageReaders = (ocr: OcrEffort): PageReaders<DocumentPage> => ({
  async pdf(bytes, password) {
    const pdf = await openPdf(bytes, ocr, password);
    return {
      numPages: pdf.numPages,
      readPage: async (local, pageNumber) => {
        const { text, source, size } = await pdf.readPage(local);
        return { pageNumber, text, source, size };
      },
      close: pdf.close,
    };
  },
  async image(raster, pageNumber) {
    const text = (await recognizeImage(raster.pgm, ocr)).trim();
    const size = { width: raster.width, height: raster.height, unit: 'px' as const };
    return { pageNumber, text, source: 'ocr', size };
  },
  // What is read for meaning: headings as their words alone, tables in columns of words.
  marks: 'plain',
  text: (_fileType, texts, sizes) => async (local, pageNumber) => {
    const size = sizes?.[local - 1];
    return { pageNumber, text: texts[local - 1], source: 'native', ...(size && { size }) };
  },
});

/**
 * Loads one or more documents as one, in order, as page texts (see `loadParts`);
 * `page_range` selects PDF pages of the combined document. A word broken at a soft hyphen
 * at a line's end is read whole, and soft hyphens elsewhere dropped (line-hyphenation.ts);
 * a hyphen at a line's end stays as written (record 0539: joining those reads the words
 * right but moves dev documents the classifier holds on a knife's edge).
 */
export async function loadDocuments(
  sources: readonly DocumentSource[],
  options: LoadOptions = {},
): Promise<LoadedDocument> {
  const loaded = await loadParts(sources, textPageReaders(options.ocr ?? 'fast'), (totalPages) =>
    selectPages(options.pageRange, totalPages),
  );
  const pages = loaded.pages.map((page) => ({ ...page, text: classificationText(page.text) }));
  return { ...loaded, pages };
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
