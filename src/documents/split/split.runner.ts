import { RequestValidationError, type ValidationErrorItem } from '../../common/validation-error.js';
import type { DocumentSource } from '../readers/document.types.js';
import type { PageRangeInput } from '../readers/page-range.js';
import { layoutOf } from '../parse/layout.loader.js';
import type { LayoutDocument } from '../parse/layout.types.js';
import type { ParsedDocument } from '../parse/parsed-layout.js';
import type { DeepSplitEngine } from '../versions/engines.js';
import { reportVersions, type ModelVersionsReport } from '../versions/model-pins.js';
import type { ResolvedVersion } from '../versions/model-version.types.js';
import {
  deepSplitDocument,
  splitDocument,
  type DeepSplitResult,
  type SplitResult,
  type SplitSection,
} from './split.operation.js';

/** The split request fields the pipeline reads (reductoai SplitRunParams + deep split). */
export interface SplitRequest {
  input?: unknown;
  alpha?: { deep_split_model?: string };
  split_description?: unknown;
  split_rules?: string;
  parsing?: { settings?: { page_range?: PageRangeInput } };
  settings?: { deep_split?: boolean };
}

export interface SplitOutcome {
  /** What was read: for usage events (fileType) and job records (total pages). */
  document: { fileType: string; totalPages: number };
  result: SplitResult | DeepSplitResult;
  usage: { num_pages: number };
  model_versions: ModelVersionsReport;
}

/** `split_description`: a non-empty array of {name, description, partition_key?}. */
function validateSplitDescription(value: unknown): SplitSection[] {
  const loc = ['body', 'split_description'];
  if (!Array.isArray(value)) {
    throw new RequestValidationError([
      { loc, msg: 'Input should be a valid list', type: 'list_type', input: value },
    ]);
  }
  if (value.length === 0) {
    throw new RequestValidationError([
      {
        loc,
        msg: 'List should have at least 1 item',
        type: 'too_short',
        input: value,
        ctx: { min_length: 1 },
      },
    ]);
  }
  const errors: ValidationErrorItem[] = [];
  const names = new Set<string>();
  value.forEach((item: unknown, index) => {
    const at = [...loc, index];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      errors.push({
        loc: at,
        msg: 'Input should be a valid dictionary',
        type: 'dict_type',
        input: item,
      });
      return;
    }
    const entry = item as Record<string, unknown>;
    for (const field of ['name', 'description']) {
      if (typeof entry[field] !== 'string') {
        errors.push({
          loc: [...at, field],
          msg: entry[field] === undefined ? 'Field required' : 'Input should be a valid string',
          type: entry[field] === undefined ? 'missing' : 'string_type',
          input: entry[field],
        });
      }
    }
    if (
      entry.partition_key !== undefined &&
      entry.partition_key !== null &&
      typeof entry.partition_key !== 'string'
    ) {
      errors.push({
        loc: [...at, 'partition_key'],
        msg: 'Input should be a valid string',
        type: 'string_type',
        input: entry.partition_key,
      });
    }
    if (typeof entry.name === 'string') {
      if (names.has(entry.name)) {
        errors.push({
          loc: [...at, 'name'],
          msg: `Duplicate section name "${entry.name}"`,
          type: 'value_error',
          input: entry.name,
        });
      }
      names.add(entry.name);
    }
  });
  if (errors.length > 0) throw new RequestValidationError(errors);
  return value as SplitSection[];
}

export async function runSplit(
  documents: readonly DocumentSource[],
  request: SplitRequest,
  versions: { deepSplit?: ResolvedVersion },
  parsed?: ParsedDocument,
): Promise<SplitOutcome> {
  validateSplitDescription(request.split_description);
  const document = await layoutOf(documents, parsed, {
    pageRange: request.parsing?.settings?.page_range,
  });
  return splitLoaded(document, request, versions);
}

/** Split over a document already read (a pipeline step, a `jobid://` input). */
export function splitLoaded(
  document: LayoutDocument,
  request: SplitRequest,
  versions: { deepSplit?: ResolvedVersion },
): SplitOutcome {
  const sections = validateSplitDescription(request.split_description);
  const result = versions.deepSplit
    ? deepSplitDocument(document, sections, versions.deepSplit.engine as DeepSplitEngine)
    : splitDocument(document, sections);
  return {
    document: { fileType: document.fileType, totalPages: document.totalPages },
    result,
    usage: { num_pages: document.pages.length },
    model_versions: reportVersions([versions.deepSplit]),
  };
}
