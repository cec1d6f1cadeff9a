import type { ParsedDocument } from '../../documents/parse/parsed-layout.js';

/** One resolved input document, bytes in memory (transferable to a worker thread). */
export interface InputDocument {
  bytes: Uint8Array;
  /** File name from the URL or upload, for type hints only: the type is detected from content. */
  fileName: string;
  contentType: string | null;
  /** A document an earlier parse read (a `jobid://` input); `bytes` is then empty. */
  parsed?: ParsedDocument;
}

/** Where a `jobid://` input's document is: the parse job's result file (BlobStore key). */
export interface ParsedSource {
  parsed: string;
  fileName: string;
}

/**
 * Where one input's bytes are: a URL to fetch, an uploaded blob under DATA_DIR/blobs
 * (ownership already checked by InputResolver.sources), or a URL input already downloaded
 * to DATA_DIR/inputs (StagedInputs), or an earlier parse job's document (a `jobid://`
 * input, ParsedInputs). What a Redis task carries.
 */
export type InputSource =
  | { url: string }
  | { blob: string; fileName: string }
  | { staged: string; fileName: string }
  | ParsedSource;
