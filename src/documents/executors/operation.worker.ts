/**
 * Executor process entry for every operation (classify, parse, extract, split, edit,
 * pipelines): document loading (pdf.js, OCR) and the operation run in a child process of
 * its own. Run from compiled output; see OperationPool.
 */
import { warmUpClassifier } from '../classify/classify.js';
import { warmUpExtract } from '../extract/warm-up.js';
import { warmUpPdf } from '../readers/pdf.reader.js';
import { serveTasks } from './executor.child.js';
import { runOperationTask } from './operation.run.js';

// The sentence encoder, language model, extract's tables and pdf.js load once per process,
// when it starts (the executor says `ready` after; the API's start-up and /health never
// wait for it).
serveTasks(runOperationTask, async () => {
  await warmUpExtract();
  warmUpClassifier();
  await warmUpPdf();
});
