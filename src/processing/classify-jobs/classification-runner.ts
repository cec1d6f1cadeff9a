import type { InputDocument } from '../core/input-document.js';
import type { ClassifyConfigDto, PageSelection } from '../requests/classify-config.dto.js';

export interface ClassificationTaskInput {
  /** Concatenated in order into one document. */
  documents: InputDocument[];
  classificationSchema: { category: string; criteria: string[] }[];
  model: 'default' | 'accurate';
  pageRange: PageSelection;
  documentMetadata: string | null;
  categoryGroups?: Record<string, string[]>;
}

/**
 * A stored classify request as the runner's input: one mapping for the legacy workers and the
 * new queue system's workers.
 */
export function classificationInput(
  request: ClassifyConfigDto,
  documents: InputDocument[],
): ClassificationTaskInput {
  return {
    documents,
    classificationSchema: request.classification_schema,
    model: request.model,
    pageRange: request.page_range,
    documentMetadata: request.document_metadata,
    categoryGroups: request.category_groups,
  };
}

export interface CategoryConfidence {
  category: string;
  /** Share of the category's criteria rated high. */
  confidence: number;
  criteria_confidence: { criterion: string; confidence: 'high' | 'low' }[];
}

export interface ClassificationOutcome {
  /** null only when the schema has no categories. */
  category: string | null;
  categories: CategoryConfidence[];
  /** Pages classified (and billed). */
  numPages: number;
  /** Pages in the input documents. */
  totalPages: number;
  /** Detected type of the input (e.g. `pdf`, `docx`, `txt`), `mixed` for several types. */
  fileType: string;
  /** Group of the chosen category when `categoryGroups` was given, else `ungrouped`. */
  grouping?: string;
}

/**
 * The classification pipeline as the job layer sees it: documents and config in, outcome out.
 * The real implementation runs document decoding and classification on a worker-thread pool;
 * errors a client caused are thrown as `ProcessingError`.
 */
export interface ClassificationRunner {
  /** `signal` aborts the run (the job was cancelled): its executor is ended. */
  run(input: ClassificationTaskInput, signal?: AbortSignal): Promise<ClassificationOutcome>;
}

export const CLASSIFICATION_RUNNER = Symbol('CLASSIFICATION_RUNNER');
