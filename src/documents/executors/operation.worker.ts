/**
 * Executor process entry for parse/extract/split: document loading (pdf.js, OCR) and the
 * operation run in a child process of its own. Run from compiled output; see OperationPool.
 */
import { warmUpExtract } from '../extract/warm-up.js';
import { serveTasks } from './executor.child.js';
import { runOperationTask } from './operation.run.js';

serveTasks(runOperationTask, warmUpExtract);
