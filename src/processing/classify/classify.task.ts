import {
  CorruptDocumentError,
  PageSelectionError,
  TooManyPagesSelectedError,
  UnsupportedDocumentError,
} from '../documents/document.errors.js';
import { loadDocuments } from '../documents/document.loader.js';
import type {
  DocumentFileType,
  DocumentSource,
  PageTextSource,
} from '../documents/document.types.js';
import type { PageRangeInput } from '../documents/page-range.js';
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

/** An error as it crosses the thread boundary (structured clone drops classes and fields). */
export interface SerializedTaskError {
  name: string;
  message: string;
  fields: Record<string, unknown>;
}

export type ClassifyTaskReply =
  { ok: true; result: ClassifyTaskResult } | { ok: false; error: SerializedTaskError };

/** Loads the documents and classifies them. The body of the worker and of inline mode. */
export async function runClassifyTask(task: ClassifyTask): Promise<ClassifyTaskResult> {
  const document = await loadDocuments(task.documents, { pageRange: task.pageRange });
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

export function serializeError(error: unknown): SerializedTaskError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (key !== 'cause') fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

/** Rebuilds the typed document errors so callers can map them to 4xx responses. */
export function deserializeError(error: SerializedTaskError): Error {
  const f = error.fields;
  switch (error.name) {
    case 'UnsupportedDocumentError':
      return new UnsupportedDocumentError(error.message, f.detectedMime as string | undefined);
    case 'CorruptDocumentError':
      return new CorruptDocumentError(String(f.fileType), error.message);
    case 'TooManyPagesSelectedError':
      return new TooManyPagesSelectedError(Number(f.count), Number(f.max), f.input);
    case 'PageSelectionError':
      return new PageSelectionError(
        f.kind as PageSelectionError['kind'],
        error.message,
        f.input,
        f.ctx as Record<string, unknown>,
      );
    default: {
      const rebuilt = new Error(error.message);
      rebuilt.name = error.name;
      return rebuilt;
    }
  }
}
