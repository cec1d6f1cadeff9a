import type { ClassifyTask, ClassifyTaskResult } from '../classify/classify.task.js';
import type { DocumentSource } from '../readers/document.types.js';
import type { ParsedDocument } from '../parse/parsed-layout.js';
import type { EditOutcome, EditRequest } from '../edit/edit.types.js';
import type { ExtractOutcome, ExtractRequest } from '../extract/extract.runner.js';
import type { ParseOutcome, ParseRequest } from '../parse/parse.runner.js';
import type { PipelineOutcome, PipelineTask } from '../pipeline/pipeline.runner.js';
import type { SplitOutcome, SplitRequest } from '../split/split.runner.js';
import type { ResolvedVersion } from '../versions/model-version.types.js';

/**
 * One parse/extract/split job's work as plain data, so it crosses into a worker thread:
 * the documents, the request, and the versions resolved when the request was accepted.
 */
export type DocumentOperationTask =
  | {
      kind: 'parse';
      documents: DocumentSource[];
      request: ParseRequest;
      versions: { layout: ResolvedVersion };
      parsed?: ParsedDocument;
    }
  | {
      kind: 'extract';
      documents: DocumentSource[];
      request: ExtractRequest;
      versions: { extract: ResolvedVersion; deepExtract?: ResolvedVersion };
      parsed?: ParsedDocument;
    }
  | {
      kind: 'split';
      documents: DocumentSource[];
      request: SplitRequest;
      versions: { deepSplit?: ResolvedVersion };
      parsed?: ParsedDocument;
    }
  | {
      kind: 'edit';
      documents: DocumentSource[];
      request: EditRequest;
      versions: { edit: ResolvedVersion };
      maxPages?: number;
    };

/** A classification as executor work: the documents (or a parsed one) and the schema. */
export type ClassifyOperationTask = ClassifyTask & { kind: 'classify' };

/**
 * What the executors run, one union for every operation: a classification, a parse,
 * extract, split or edit, or a stored pipeline of them.
 */
export type OperationTask = ClassifyOperationTask | DocumentOperationTask | PipelineTask;

/**
 * Where an executor writes what it would otherwise send back whole (a result runs to
 * megabytes): files under the data dir's file store, named by the API process relative to
 * `root`, so a worker that mounts the volume elsewhere names the same files.
 */
export interface OutcomeFiles {
  /** The file store's folder as the executor sees it. */
  root: string;
  /** The file the result's JSON is written to. */
  result: string;
  /** The file a parse's lines (its `layout`) are written to. */
  layout: string;
  /**
   * Further files, used in order by the operations that write more than one value: an
   * edit's document, form schema and report; a pipeline's steps' results (see
   * `outcomePartCount`).
   */
  parts: string[];
}

/** A value the executor wrote to a file as JSON instead of sending it: the file and its size. */
export interface WrittenJson {
  writtenJson: string;
  bytes: number;
}

/** A task whose executor writes a large result to `files` (see OutcomeFiles). */
export type FileOperationTask = OperationTask & { files: OutcomeFiles };

export type OperationOutcome = ParseOutcome | ExtractOutcome | SplitOutcome | EditOutcome;
/** What an executor hands back for any task of the union. */
export type ExecutorOutcome = ClassifyTaskResult | OperationOutcome | PipelineOutcome;
export type { ClassifyTaskResult, PipelineOutcome, PipelineTask };

export type OperationKind = DocumentOperationTask['kind'];
