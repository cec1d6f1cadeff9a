/**
 * Piscina worker entry: loads documents (PDF text, OCR, DOCX...) and classifies them off
 * the main event loop. Run from compiled output (`dist/`); see ClassifierPool.
 */
import { warmUpPdf } from '../readers/pdf.reader.js';
import { taskWorker } from '../executors/task-reply.js';
import { warmUpClassifier } from './classify.js';
import { runClassifyTask } from './classify.task.js';

// Language model, WordNet and pdf.js load once per thread, when the thread starts.
warmUpClassifier();
// A failed warm-up only costs the first task its speed; it must not kill the thread.
await warmUpPdf().catch(() => undefined);

export default taskWorker(runClassifyTask);
