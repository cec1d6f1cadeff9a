import type { DocumentSource } from '../readers/document.types.js';
import type { PageRangeInput } from '../readers/page-range.js';
import { layoutOf } from '../parse/layout.loader.js';
import type { LayoutDocument } from '../parse/layout.types.js';
import type { ParsedDocument } from '../parse/parsed-layout.js';
import type { DeepExtractEngine, ExtractEngine } from '../versions/engines.js';
import { reportVersions, type ModelVersionsReport } from '../versions/model-pins.js';
import type { ResolvedVersion } from '../versions/model-version.types.js';
import { extractDocument } from './extract.operation.js';
import { validateSchema } from './extract-schema.js';

/** The extract request fields the pipeline reads (reductoai ExtractRunParams). */
export interface ExtractRequest {
  input?: unknown;
  instructions?: { schema?: unknown; system_prompt?: string };
  parsing?: { settings?: { page_range?: PageRangeInput } };
  settings?: {
    citations?: { enabled?: boolean };
    deep_extract?: boolean;
    array_extract?: boolean;
    alpha?: { extract_model?: string; deep_extract_model?: string };
  };
}

export interface ExtractOutcome {
  /** What was read: for usage events (fileType) and job records (total pages). */
  document: { fileType: string; totalPages: number };
  result: Record<string, unknown>;
  usage: { num_pages: number; num_fields: number };
  model_versions: ModelVersionsReport;
}

export async function runExtract(
  documents: readonly DocumentSource[],
  request: ExtractRequest,
  versions: { extract: ResolvedVersion; deepExtract?: ResolvedVersion },
  parsed?: ParsedDocument,
): Promise<ExtractOutcome> {
  validateSchema(request.instructions?.schema, ['body', 'instructions', 'schema']);
  const document = await layoutOf(documents, parsed, {
    pageRange: request.parsing?.settings?.page_range,
    // Deep Extract reads image pages with both thresholdings (a photo's uneven light).
    ocr: request.settings?.deep_extract === true ? 'thorough' : 'fast',
  });
  return extractLoaded(document, request, versions);
}

/** Extract over a document already read (a pipeline step, a `jobid://` input). */
export function extractLoaded(
  document: LayoutDocument,
  request: ExtractRequest,
  versions: { extract: ResolvedVersion; deepExtract?: ResolvedVersion },
): ExtractOutcome {
  const schema = validateSchema(request.instructions?.schema, ['body', 'instructions', 'schema']);
  const { result, numFields } = extractDocument(document, schema, {
    engine: versions.extract.engine as ExtractEngine,
    deepEngine: versions.deepExtract?.engine as DeepExtractEngine | undefined,
    citations: request.settings?.citations?.enabled === true,
    arrayExtract: request.settings?.array_extract === true,
  });
  return {
    document: { fileType: document.fileType, totalPages: document.totalPages },
    result,
    usage: { num_pages: document.pages.length, num_fields: numFields },
    model_versions: reportVersions([versions.extract, versions.deepExtract]),
  };
}
