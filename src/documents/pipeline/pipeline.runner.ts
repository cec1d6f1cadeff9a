import { classify } from '../classify/classify.js';
import type {
  ClassificationCategory,
  ClassifyModel,
  ClassifyOutput,
} from '../classify/classify.types.js';
import {
  extractLoaded,
  type ExtractOutcome,
  type ExtractRequest,
} from '../extract/extract.runner.js';
import { layoutOf } from '../parse/layout.loader.js';
import type { LayoutDocument } from '../parse/layout.types.js';
import { classificationPages, type ParsedDocument } from '../parse/parsed-layout.js';
import { parseLoaded, type ParseOutcome, type ParseRequest } from '../parse/parse.runner.js';
import type { DocumentSource } from '../readers/document.types.js';
import type { PageRangeInput } from '../readers/page-range.js';
import { splitLoaded, type SplitOutcome, type SplitRequest } from '../split/split.runner.js';
import type { ModelVersionsReport } from '../versions/model-pins.js';
import type { ResolvedVersion } from '../versions/model-version.types.js';

export type ExtractVersions = { extract: ResolvedVersion; deepExtract?: ResolvedVersion };

/** The classify fields a pipeline's classify step reads (a ClassifyConfig without input). */
export interface ClassifyStepRequest {
  classification_schema: ClassificationCategory[];
  model?: ClassifyModel;
  page_range?: PageRangeInput;
  document_metadata?: string | null;
  category_groups?: Record<string, string[]> | null;
}

/** One step after the parse, with the versions resolved when the run was accepted. */
export type PipelineStep =
  | { kind: 'extract'; request: ExtractRequest; versions: ExtractVersions }
  | { kind: 'split'; request: SplitRequest; versions: { deepSplit?: ResolvedVersion } }
  | {
      kind: 'classify';
      request: ClassifyStepRequest;
      /** The classify-then-extract branch: the extract of the category chosen, if any. */
      extractByCategory?: Record<string, { request: ExtractRequest; versions: ExtractVersions }>;
    };

/** A pipeline run as plain data (crosses into an executor like the other operations). */
export interface PipelineTask {
  kind: 'pipeline';
  documents: DocumentSource[];
  parsed?: ParsedDocument;
  parse: { request: ParseRequest; versions: { layout: ResolvedVersion } };
  steps: PipelineStep[];
}

type ClassifyStepOutcome = ClassifyOutput;

/** What one step produced, and the pages its price applies to. */
export type PipelineStepOutcome =
  | { kind: 'extract'; outcome: ExtractOutcome; category?: string }
  | { kind: 'split'; outcome: SplitOutcome }
  | { kind: 'classify'; outcome: ClassifyStepOutcome };

export interface PipelineOutcome {
  document: { fileType: string; totalPages: number };
  /** The parse step's outcome (its lines are not kept: a pipeline is not a parse job). */
  parse: Omit<ParseOutcome, 'layout'>;
  steps: PipelineStepOutcome[];
  /** The parse's result, as every operation outcome has one (the pipeline's first step). */
  result: ParseOutcome['result'];
  usage: { num_pages: number };
  model_versions: ModelVersionsReport;
}

function classifyStep(layout: LayoutDocument, request: ClassifyStepRequest): ClassifyStepOutcome {
  const { pages } = classificationPages(layout, request.page_range);
  return classify({
    pages: pages.map((page) => ({ pageNumber: page.pageNumber, text: page.text })),
    classificationSchema: request.classification_schema,
    documentMetadata: request.document_metadata,
    categoryGroups: request.category_groups,
    model: request.model,
  });
}

/**
 * A stored pipeline over one document: it is read once (or taken from the parse job a
 * `jobid://` input names), parsed, and every later step (extract, split, classify, and the
 * extract of the category classify chose) works on the same lines, never reading the
 * document again.
 */
export async function runPipeline(task: PipelineTask): Promise<PipelineOutcome> {
  const layout = await layoutOf(task.documents, task.parsed, {
    pageRange: task.parse.request.settings?.page_range,
  });
  const parsed = parseLoaded(layout, task.parse.request, task.parse.versions);
  const parse: PipelineOutcome['parse'] = {
    document: parsed.document,
    result: parsed.result,
    usage: parsed.usage,
    model_versions: parsed.model_versions,
  };
  const steps: PipelineStepOutcome[] = [];
  let versions: ModelVersionsReport = { ...parse.model_versions };
  for (const step of task.steps) {
    switch (step.kind) {
      case 'extract': {
        const outcome = extractLoaded(layout, step.request, step.versions);
        versions = { ...versions, ...outcome.model_versions };
        steps.push({ kind: 'extract', outcome });
        break;
      }
      case 'split': {
        const outcome = splitLoaded(layout, step.request, step.versions);
        versions = { ...versions, ...outcome.model_versions };
        steps.push({ kind: 'split', outcome });
        break;
      }
      case 'classify': {
        const outcome = classifyStep(layout, step.request);
        steps.push({ kind: 'classify', outcome });
        const category = outcome.result.category;
        const branch = category === null ? undefined : step.extractByCategory?.[category];
        if (branch && category !== null) {
          const extracted = extractLoaded(layout, branch.request, branch.versions);
          versions = { ...versions, ...extracted.model_versions };
          steps.push({ kind: 'extract', outcome: extracted, category });
        }
        break;
      }
    }
  }
  return {
    document: parse.document,
    parse,
    steps,
    result: parse.result,
    usage: { num_pages: parse.usage.num_pages },
    model_versions: versions,
  };
}
