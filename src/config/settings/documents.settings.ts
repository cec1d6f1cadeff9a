import {
  OCR_LANGUAGE_CODES,
  type OcrLanguageCode,
  ocrLanguagesProblem,
} from '../ocr-language-data.js';
import { DEFAULT_DOCUMENT_LIMITS } from '../processing.config.js';
import { int, list } from '../setting.js';

/* The document engines: limits on what a document may be, classify input sizes and the
 * executor processes that run the engines. Part of PROCESSING_SETTINGS (one reference section). */

export const DOCUMENT_SETTINGS = {
  documentLimits: {
    maxImagePixels: int(
      'MAX_IMAGE_PIXELS',
      { default: DEFAULT_DOCUMENT_LIMITS.maxImagePixels, min: 1 },
      'Width × height of an image, read from its header before decoding (a 600 dpi A4 scan is 35 megapixels).',
    ),
    maxPages: int(
      'MAX_DOCUMENT_PAGES',
      { default: DEFAULT_DOCUMENT_LIMITS.maxPages, min: 1 },
      "Pages of one request's documents together, counted before any page is read (every operation; 413 beyond).",
    ),
    maxParsePages: int(
      'MAX_PARSE_PAGES',
      { default: DEFAULT_DOCUMENT_LIMITS.maxParsePages, min: 1 },
      'PDF pages that parse, extract and split (and pipelines) read in one request: all of them, or those `page_range` selects (422 `PAGE_RANGE_INVALID` beyond: select fewer with `page_range`). Classification reads at most 10, edit reads whole documents within `MAX_DOCUMENT_PAGES`.',
    ),
    maxZipUncompressedBytes: int(
      'MAX_ZIP_UNCOMPRESSED_BYTES',
      { default: DEFAULT_DOCUMENT_LIMITS.maxZipUncompressedBytes, min: 1, unit: 'bytes' },
      'Inflated size of a zip-based document (DOCX, PPTX, XLSX), from its central directory.',
    ),
    maxZipCompressionRatio: int(
      'MAX_ZIP_COMPRESSION_RATIO',
      { default: DEFAULT_DOCUMENT_LIMITS.maxZipCompressionRatio, min: 1 },
      'Inflated size / stored size of a zip-based document (Word XML compresses 5-20×, zip bombs 1000× and more).',
    ),
    maxMarkupDepth: int(
      'MAX_MARKUP_DEPTH',
      { default: DEFAULT_DOCUMENT_LIMITS.maxMarkupDepth, min: 1 },
      'Element nesting depth of HTML and of the XML of a DOCX, PPTX or XLSX.',
    ),
    maxSheetCells: int(
      'MAX_SHEET_CELLS',
      { default: DEFAULT_DOCUMENT_LIMITS.maxSheetCells, min: 1 },
      'Cells of a spreadsheet read into tables: the cells an XLSX writes (all its sheets together), those of a CSV file, and the rows × columns of the table each sheet or file becomes (413 beyond).',
    ),
    maxOfficeTextChars: int(
      'MAX_OFFICE_TEXT_CHARS',
      { default: DEFAULT_DOCUMENT_LIMITS.maxOfficeTextChars, min: 1 },
      'Characters of text a slide deck or workbook (PPTX, XLSX) gives, counted as it is read: a shared string repeated in many cells counts each time (413 beyond).',
    ),
    maxResultBytes: int(
      'MAX_RESULT_BYTES',
      { default: DEFAULT_DOCUMENT_LIMITS.maxResultBytes, min: 1024, unit: 'bytes' },
      'JSON size of one parse, extract or split result, measured in the executor that made it: a larger one fails with 413 before it reaches the API process (which holds a result a few times over while storing it). Select fewer pages (`page_range`) to stay under it.',
    ),
  },
  ocrLanguages: list<OcrLanguageCode>(
    'OCR_LANGUAGES',
    {
      item: {
        regex: /^[a-z_]+$/,
        message: 'each entry must be a Tesseract language code such as deu',
      },
      type: 'list of Tesseract language codes',
      lowercase: true,
      default: [...OCR_LANGUAGE_CODES],
      empty: [],
      validate: (codes) => ocrLanguagesProblem(codes),
      map: (code) => code as OcrLanguageCode,
    },
    'Languages OCR may read an image or scanned page again in, besides English, when the page is in one of them (its script, or the language of its English reading): codes of the bundled `@tesseract.js-data` packages. Set to empty text for English only (every page is read in English first): fastest, least memory. Each language read costs such a page 1.5-3.5× the OCR time of English alone, and an executor about 65 MB more while its language worker is loaded. A code not installed refuses the start.',
  ),
  classifyLimits: {
    maxCriterionChars: int(
      'MAX_CRITERION_CHARS',
      { default: 2_000, min: 1 },
      'Characters of one classification criterion (422 beyond).',
    ),
    maxCategoryChars: int(
      'MAX_CATEGORY_CHARS',
      { default: 256, min: 1 },
      'Characters of one category name (422 beyond).',
    ),
    maxDocumentMetadataChars: int(
      'MAX_DOCUMENT_METADATA_CHARS',
      { default: 20_000, min: 1 },
      "Characters of a classify request's `document_metadata` (422 beyond).",
    ),
    maxCategories: int(
      'MAX_CATEGORIES',
      { default: 200, min: 1 },
      "Entries of `classification_schema`, of a classify request and of a pipeline's classify step alike (422 beyond).",
    ),
  },
  executors: {
    heapMb: int(
      'EXECUTOR_HEAP_MB',
      { default: 1_024, min: 64, unit: 'MB' },
      'V8 old-space ceiling of each document executor process.',
    ),
    rssLimitMb: int(
      'EXECUTOR_RSS_LIMIT_MB',
      { default: 1_280, min: 64, unit: 'MB' },
      'Resident memory past which an executor is ended mid-task (the task fails, the service goes on).',
    ),
    recycleRssMb: int(
      'EXECUTOR_RECYCLE_RSS_MB',
      { default: 640, min: 64, unit: 'MB' },
      'An idle executor above this resident size is replaced after its task (one holding the sentence encoder rests near 360 MB, so it is kept across tasks).',
    ),
    taskTimeLimitMs: int(
      'TASK_TIME_LIMIT_MS',
      { default: 120_000, min: 100, unit: 'ms' },
      'Wall-clock limit of one document task.',
    ),
    idleMs: int(
      'EXECUTOR_IDLE_MS',
      { default: 60_000, min: 1_000, unit: 'ms' },
      'An executor beyond the warm ones exits after this long idle.',
    ),
    nice: int(
      'EXECUTOR_NICE',
      { default: 10, min: 0, max: 19 },
      "Scheduling niceness of the executor processes: on a busy machine the server process (health checks, routing, uploads) gets the CPU before document work does. 0 runs them at the server's own priority.",
    ),
  },
} as const;
