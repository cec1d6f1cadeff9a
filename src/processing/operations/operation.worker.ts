/**
 * Piscina worker entry for parse/extract/split: document loading (pdf.js, OCR) and the
 * operation run off the main event loop. Run from compiled output; see OperationPool.
 */
import { serializeError, type SerializedTaskError } from '../classify/classify.task.js';
import { runOperationTask, type OperationOutcome, type OperationTask } from './operation.task.js';

export type OperationTaskReply =
  { ok: true; result: OperationOutcome } | { ok: false; error: SerializedTaskError };

export default async function operationWorker(task: OperationTask): Promise<OperationTaskReply> {
  try {
    return { ok: true, result: await runOperationTask(task) };
  } catch (error) {
    return { ok: false, error: serializeError(error) };
  }
}
