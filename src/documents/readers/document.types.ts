/**
 * Document types docproc reads. `image` covers PNG, JPEG, TIFF, WebP, GIF and AVIF; `csv`
 * comma-, semicolon-, tab- and bar-separated values.
 */
export type DocumentFileType =
  'pdf' | 'docx' | 'pptx' | 'xlsx' | 'csv' | 'image' | 'txt' | 'md' | 'html';

/** Where a page's text came from: a PDF text layer, OCR, or the format's own text. */
export type PageTextSource = 'text-layer' | 'ocr' | 'native';

export interface DocumentPage {
  /** 1-indexed page number in the (possibly concatenated) document. */
  pageNumber: number;
  text: string;
  source: PageTextSource;
  /**
   * The page's size: PDF pages and slides in points (1/72 inch), images in pixels (only their
   * shape counts); absent for formats without pages of their own (text, Markdown, HTML, DOCX,
   * sheets, CSV).
   */
  size?: PageSize;
}

export interface PageSize {
  width: number;
  height: number;
  unit: 'pt' | 'px';
}

/** A document reduced to the text of its selected pages. */
export interface LoadedDocument {
  /**
   * For a concatenation, the type of the first part
   * (docs/decisions/0032-page-range-selection.md).
   */
  fileType: DocumentFileType;
  /** Pages of the whole document (all parts), not only the selected ones. */
  totalPages: number;
  /** Selected pages in document order. */
  pages: DocumentPage[];
}

/** Bytes of one document plus an optional file name or extension used as a hint. */
export interface DocumentSource {
  bytes: Uint8Array;
  /** File name (`report.md`) or bare extension (`md`, `.md`); only a hint. */
  name?: string;
  /** The content type a URL input was served with (`text/csv`); only a hint. */
  contentType?: string;
  /** Opens a PDF encrypted with a user password (the request's `document_password`). */
  password?: string;
}
