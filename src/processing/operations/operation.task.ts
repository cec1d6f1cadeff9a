import type { DocumentSource } from '../documents/document.types.js';
import { runExtract, type ExtractOutcome, type ExtractRequest } from '../extract/extract.runner.js';
import { runParse, type ParseOutcome, type ParseRequest } from '../parse/parse.runner.js';
import { runSplit, type SplitOutcome, type SplitRequest } from '../split/split.runner.js';
import type { ResolvedVersion } from '../versions/model-version.types.js';

/**
 * One parse/extract/split job's work as plain data, so it crosses into a worker thread:
 * the documents, the request, and the versions resolved when the request was accepted.
 */
export type OperationTask =
  | {
      kind: 'parse';
      documents: DocumentSource[];
      request: ParseRequest;
      versions: { layout: ResolvedVersion };
      maxPages?: number;
    }
  | {
      kind: 'extract';
      documents: DocumentSource[];
      request: ExtractRequest;
      versions: { extract: ResolvedVersion; deepExtract?: ResolvedVersion };
      maxPages?: number;
    }
  | {
      kind: 'split';
      documents: DocumentSource[];
      request: SplitRequest;
      versions: { deepSplit?: ResolvedVersion };
      maxPages?: number;
    };

export type OperationOutcome = ParseOutcome | ExtractOutcome | SplitOutcome;

/** The body of the worker and of inline mode. */
export function runOperationTask(task: OperationTask): Promise<OperationOutcome> {
  switch (task.kind) {
    case 'parse':
      return runParse(task.documents, task.request, task.versions, task.maxPages);
    case 'extract':
      return runExtract(task.documents, task.request, task.versions, task.maxPages);
    case 'split':
      return runSplit(task.documents, task.request, task.versions, task.maxPages);
  }
}
