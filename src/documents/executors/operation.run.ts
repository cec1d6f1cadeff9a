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
import {
  writeEditOutcome,
  writeOutcome,
  writePipelineOutcome,
  type WrittenEditOutcome,
  type WrittenOperationOutcome,
} from './outcome-files.js';
import type {
  ExecutorOutcome,
  OperationOutcome,
  OperationTask,
  OutcomeFiles,
  PipelineOutcome,
} from './operation.task.js';
import type { EditOutcome } from '../edit/edit.types.js';

/**
 * The kinds whose result runs to megabytes with the document and is written to a file when
 * the task names one; an edit writes its document and report, a pipeline each step's
 * result (outcome-files.ts). A classification's output is small and crosses whole.
 */
const WRITES_RESULT_FILES: ReadonlySet<OperationTask['kind']> = new Set([
  'parse',
  'extract',
  'split',
]);

function run(task: OperationTask): Promise<ExecutorOutcome> {
  switch (task.kind) {
    case 'classify':
      return runClassifyTask(task);
    case 'parse':
      return runParse(task.documents, task.request, task.versions, task.parsed);
    case 'extract':
      return runExtract(task.documents, task.request, task.versions, task.parsed);
    case 'split':
      return runSplit(task.documents, task.request, task.versions, task.parsed);
    case 'edit':
      return runEdit(task.documents, task.request, task.versions, task.maxPages);
    case 'pipeline':
      return runPipeline(task);
  }
}

/**
 * The body of the worker and of inline mode. The result's JSON size is checked here, where
 * it was made. A task with `files` has its result (and a parse's lines) written to them
 * here, and only references cross back; one without has the whole outcome copied into the
 * API process, which holds it several times over while it stores it.
 */
export async function runOperationTask(
  task: OperationTask & { files?: OutcomeFiles },
): Promise<ExecutorOutcome | WrittenOperationOutcome | WrittenEditOutcome> {
  const outcome = await run(task);
  // A classification answers with its output; every other operation with its result.
  const json = JSON.stringify('output' in outcome ? outcome.output : outcome.result);
  const bytes = Buffer.byteLength(json);
  enforceLimit(
    'maxResultBytes',
    bytes,
    (max) =>
      `The ${task.kind} result is ${bytes} bytes of JSON; at most ${max} are returned. ` +
      'Select fewer pages with page_range',
  );
  if (!task.files) return outcome;
  if (WRITES_RESULT_FILES.has(task.kind)) {
    return writeOutcome(outcome as OperationOutcome, json, task.files);
  }
  if (task.kind === 'edit') return writeEditOutcome(outcome as EditOutcome, task.files);
  if (task.kind === 'pipeline') {
    return writePipelineOutcome(outcome as PipelineOutcome, json, task.files);
  }
  return outcome;
}
