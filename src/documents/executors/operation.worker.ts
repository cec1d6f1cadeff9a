/**
 * Piscina worker entry for parse/extract/split: document loading (pdf.js, OCR) and the
 * operation run off the main event loop. Run from compiled output; see OperationPool.
 */
import { taskWorker } from './task-reply.js';
import { runOperationTask } from './operation.run.js';

export default taskWorker(runOperationTask);
