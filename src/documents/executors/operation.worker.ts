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
// Above EXECUTOR_RECYCLE_RSS_MB after a task, OCR's workers (English's, the language one,
// orientation's; 60-140 MB each) are ended before the executor is judged: they start again
// on the next page that needs them (about a second), where a recycle would reload the whole
// executor (docs/decisions/0547-*).
serveTasks(
  runOperationTask,
  async () => {
    await warmUpExtract();
    warmUpClassifier();
    await warmUpPdf();
  },
  // Imported when needed: an executor that never read a page by OCR has nothing to end.
  async () => (await import('../readers/ocr.engine.js')).terminateOcr(),
);
