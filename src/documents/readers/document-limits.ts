import { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits } from '../../config/processing.config.js';

export { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits };

/*
 * Input limits of the document readers, checked before any decoding starts: a document
 * past one is refused with an error naming the setting, instead of exhausting the memory
 * or the stack of the process that decodes it. Plain data, so it travels with each task
 * into the executor processes (see docs/decisions/0060-input-limits-before-decoding.md).
 */
/** Setting (environment variable) of each limit, as errors and docs name it. */
const DOCUMENT_LIMIT_SETTINGS: Record<keyof DocumentLimits, string> = {
  maxImagePixels: 'MAX_IMAGE_PIXELS',
  maxPages: 'MAX_DOCUMENT_PAGES',
  maxParsePages: 'MAX_PARSE_PAGES',
  maxZipUncompressedBytes: 'MAX_ZIP_UNCOMPRESSED_BYTES',
  maxZipCompressionRatio: 'MAX_ZIP_COMPRESSION_RATIO',
  maxMarkupDepth: 'MAX_MARKUP_DEPTH',
  maxSheetCells: 'MAX_SHEET_CELLS',
  maxOfficeTextChars: 'MAX_OFFICE_TEXT_CHARS',
  maxResultBytes: 'MAX_RESULT_BYTES',
};

let current: DocumentLimits = { ...DEFAULT_DOCUMENT_LIMITS };

/**
 * Sets the limits the readers of this process apply. An executor process sets them from
 * each task (it runs one task at a time); inline runs use the same call.
 */
export function setDocumentLimits(limits: DocumentLimits | undefined): void {
  current = { ...DEFAULT_DOCUMENT_LIMITS, ...limits };
}

export function documentLimits(): Readonly<DocumentLimits> {
  return current;
}

/** The setting (environment variable) an error about the limit `key` names. */
export function documentLimitSetting(key: keyof DocumentLimits): string {
  return DOCUMENT_LIMIT_SETTINGS[key];
}

/** A document past one of the limits; `limit` is its setting's name. */
export class DocumentLimitError extends Error {
  readonly code = 'DOCUMENT_LIMIT_EXCEEDED';
  constructor(
    readonly limit: string,
    message: string,
    /** HTTP status a sync request answers with: 413 for sizes, 422 for structure. */
    readonly status: 413 | 422 = 413,
  ) {
    super(message);
    this.name = 'DocumentLimitError';
  }
}

/** Throws DocumentLimitError when `value` exceeds the limit `key`. */
export function enforceLimit(
  key: keyof DocumentLimits,
  value: number,
  describe: (max: number) => string,
  status: 413 | 422 = 413,
): void {
  const max = current[key];
  if (value > max) {
    throw new DocumentLimitError(
      DOCUMENT_LIMIT_SETTINGS[key],
      `${describe(max)} (limit ${DOCUMENT_LIMIT_SETTINGS[key]}=${max})`,
      status,
    );
  }
}
