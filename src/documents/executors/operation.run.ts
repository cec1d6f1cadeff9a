// The work of a parse/extract/split task: apart from operation.task.ts so that the main
// thread, which only builds tasks, never loads the document libraries (pdf.js, OCR, docx,
// canvas, the language model) that running them needs.
import { runExtract } from '../extract/extract.runner.js';
import { runParse } from '../parse/parse.runner.js';
import { runSplit } from '../split/split.runner.js';
import type { OperationOutcome, OperationTask } from './operation.task.js';

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
