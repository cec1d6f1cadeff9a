import type { Resolved } from './setting.js';
import type { PROCESSING_SETTINGS } from './settings.schema.js';

/** Settings of the processing plane (jobs, queues, uploads, fetches, webhooks, outbox). */
export type ProcessingConfig = Resolved<typeof PROCESSING_SETTINGS>;

/**
 * Input limits of the document readers, checked before any decoding starts (enforced in
 * documents/readers/document-limits.ts; each error names the setting).
 */
export type DocumentLimits = ProcessingConfig['documentLimits'];
/** Text limits of a classify request, checked at submission (422). */
export type ClassifyLimits = ProcessingConfig['classifyLimits'];
/** The child processes document work runs in (documents/executors). */
export type ExecutorSettings = ProcessingConfig['executors'];

/** Defaults of the document limits (typed by its literal: the schema is built from it). */
export const DEFAULT_DOCUMENT_LIMITS = {
  // A 600 dpi A4 scan is 35 megapixels; decoding 50 takes ~200 MB as RGBA.
  maxImagePixels: 50_000_000,
  maxPages: 2_000,
  // Parse's layout of 500 text pages holds ~370 MB and takes ~3 s; of 2000 ~800 MB, near an
  // executor's memory limit (EXECUTOR_RSS_LIMIT_MB) before chunking and the result.
  maxParsePages: 500,
  maxZipUncompressedBytes: 256 * 1024 * 1024,
  // Word XML compresses 5-20x; zip bombs 1000x and more.
  maxZipCompressionRatio: 200,
  // Real documents nest a few dozen levels; the HTML converter recurses per level.
  maxMarkupDepth: 256,
  // A sheet of 10,000 rows by 20 columns; each cell becomes a table cell of parse's layout,
  // and a workbook of a million cells compresses into a few MB.
  maxSheetCells: 200_000,
  // 200,000 cells of 80 characters; a shared string of a megabyte in each of them would be
  // 200 GB of text from a few MB of zip.
  maxOfficeTextChars: 16_000_000,
  // A 1.1 MB text file parses to ~5 MB of JSON, 100,000 HTML paragraphs to 17 MB.
  maxResultBytes: 64 * 1024 * 1024,
} as const;
