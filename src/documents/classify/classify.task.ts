import { classificationPages, type ParsedDocument } from '../parse/parsed-layout.js';
import { loadDocuments } from '../readers/document.loader.js';
import type {
  DocumentFileType,
  DocumentSource,
  PageTextSource,
} from '../readers/document.types.js';
import type { OcrEffort } from '../readers/ocr.engine.js';
import type { PageRangeInput } from '../readers/page-range.js';
import { classify } from './classify.js';
import type { ClassificationCategory, ClassifyModel, ClassifyOutput } from './classify.types.js';

/** Everything one classify job needs; plain data, so it crosses into a worker thread. */
export interface ClassifyTask {
  /** Documents in input order; several are concatenated (page numbers continue). */
  documents: DocumentSource[];
  pageRange?: PageRangeInput;
  classificationSchema: ClassificationCategory[];
  documentMetadata?: string | null;
  categoryGroups?: Record<string, string[]> | null;
  model?: ClassifyModel;
  /** A document an earlier parse read (a `jobid://` input): `documents` is then empty. */
  parsed?: ParsedDocument;
}

export interface ClassifyTaskResult {
  /** What was read: for usage events (`fileType`, pages) and job records (`total_pages`). */
  document: {
    fileType: DocumentFileType;
    totalPages: number;
    pages: { pageNumber: number; source: PageTextSource; characters: number }[];
  };
  output: ClassifyOutput;
}

/**
 * How hard each model reads images: Deep Classify (`accurate`) also reads each image with
 * local thresholding and keeps the better reading (`OcrEffort`); `default` reads it once.
 */
export function ocrEffortOf(model: ClassifyModel = 'default'): OcrEffort {
  return model === 'accurate' ? 'thorough' : 'fast';
}

/** Loads the documents and classifies them. The body of the worker and of inline mode. */
export async function runClassifyTask(task: ClassifyTask): Promise<ClassifyTaskResult> {
  const document = task.parsed
    ? classificationPages(task.parsed.layout, task.pageRange)
    : await loadDocuments(task.documents, {
        pageRange: task.pageRange,
        ocr: ocrEffortOf(task.model),
      });
  const output = classify({
    pages: document.pages,
    classificationSchema: task.classificationSchema,
    documentMetadata: task.documentMetadata,
    categoryGroups: task.categoryGroups,
    model: task.model,
  });
  return {
    document: {
      fileType: document.fileType,
      totalPages: document.totalPages,
      pages: document.pages.map((page) => ({
        pageNumber: page.pageNumber,
        source: page.source,
        characters: page.text.length,
      })),
    },
    output,
  };
}
