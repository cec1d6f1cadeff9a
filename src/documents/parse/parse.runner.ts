import type { DocumentSource } from '../readers/document.types.js';
import type { PageRangeInput } from '../readers/page-range.js';
import type { LayoutEngine } from '../versions/engines.js';
import { reportVersions, type ModelVersionsReport } from '../versions/model-pins.js';
import type { ResolvedVersion } from '../versions/model-version.types.js';
import type { BlockType } from './layout.engines.js';
import { layoutOf } from './layout.loader.js';
import type { LayoutDocument } from './layout.types.js';
import type { ParsedDocument } from './parsed-layout.js';
import { parseDocument, type ChunkMode, type ParseResult } from './parse.operation.js';

/** The parse request fields the pipeline reads (validated by the HTTP layer's DTO). */
export interface ParseRequest {
  input?: unknown;
  settings?: {
    alpha?: { layout_model?: string };
    page_range?: PageRangeInput;
    return_ocr_data?: boolean;
  };
  retrieval?: {
    chunking?: { chunk_mode?: ChunkMode; chunk_size?: number | null };
    filter_blocks?: BlockType[];
  };
  formatting?: { add_page_markers?: boolean };
}

export interface ParseOutcome {
  /** What was read: for usage events (fileType) and job records (total pages). */
  document: { fileType: string; totalPages: number };
  result: ParseResult;
  usage: { num_pages: number };
  model_versions: ModelVersionsReport;
  /** The lines the parse read, kept beside the job's result for `jobid://` reuse. */
  layout?: LayoutDocument;
}

/**
 * The parse pipeline as a plain function (runs inline or in a worker): documents ->
 * positioned lines -> blocks by the resolved layout version -> chunks.
 */
export async function runParse(
  documents: readonly DocumentSource[],
  request: ParseRequest,
  versions: { layout: ResolvedVersion },
  parsed?: ParsedDocument,
): Promise<ParseOutcome> {
  const document = await layoutOf(documents, parsed, {
    pageRange: request.settings?.page_range,
  });
  return { ...parseLoaded(document, request, versions), layout: document };
}

/** Parse over a document already read (a pipeline's first step reads it once). */
export function parseLoaded(
  document: LayoutDocument,
  request: ParseRequest,
  versions: { layout: ResolvedVersion },
): ParseOutcome {
  const result = parseDocument(document, {
    engine: versions.layout.engine as LayoutEngine,
    chunkMode: request.retrieval?.chunking?.chunk_mode,
    chunkSize: request.retrieval?.chunking?.chunk_size,
    filterBlocks: request.retrieval?.filter_blocks,
    returnOcrData: request.settings?.return_ocr_data,
    addPageMarkers: request.formatting?.add_page_markers,
  });
  return {
    document: { fileType: document.fileType, totalPages: document.totalPages },
    result,
    usage: { num_pages: document.pages.length },
    model_versions: reportVersions([versions.layout]),
  };
}
