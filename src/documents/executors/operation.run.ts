// The work of an executor task (classify, parse, extract, split, edit, pipeline): apart from operation.task.ts so that the main
// thread, which only builds tasks, never loads the document libraries (pdf.js, OCR, docx,
// canvas, the language model) that running them needs.
import { runClassifyTask } from '../classify/classify.task.js';
import { runEdit } from '../edit/edit.runner.js';
import { runExtract } from '../extract/extract.runner.js';
import { runParse } from '../parse/parse.runner.js';
import { enforceLimit } from '../readers/document-limits.js';
import { runPipeline } from '../pipeline/pipeline.runner.js';
import { runSplit } from '../split/split.runner.js';
import type { ExecutorOutcome, OperationTask } from './operation.task.js';

function run(task: OperationTask): Promise<ExecutorOutcome> {
  switch (task.kind) {
    case 'classify':
      return runClassifyTask(task);
    case 'parse':
      return runParse(task.documents, task.request, task.versions, task.maxPages, task.parsed);
    case 'extract':
      return runExtract(task.documents, task.request, task.versions, task.maxPages, task.parsed);
    case 'split':
      return runSplit(task.documents, task.request, task.versions, task.maxPages, task.parsed);
    case 'edit':
      return runEdit(task.documents, task.request, task.versions, task.maxPages);
    case 'pipeline':
      return runPipeline(task);
  }
}

/**
 * The body of the worker and of inline mode. The result's JSON size is checked here, where
 * it was made: what passes is copied into the API process, which holds it several times
 * over (the message, the object, its JSON) while it stores it.
 */
export async function runOperationTask(task: OperationTask): Promise<ExecutorOutcome> {
  const outcome = await run(task);
  // A classification answers with its output; every other operation with its result.
  const answer = 'output' in outcome ? outcome.output : outcome.result;
  const bytes = Buffer.byteLength(JSON.stringify(answer));
  enforceLimit(
    'maxResultBytes',
    bytes,
    (max) =>
      `The ${task.kind} result is ${bytes} bytes of JSON; at most ${max} are returned. ` +
      'Select fewer pages with page_range',
  );
  return outcome;
}
