/**
 * Executor process entry: loads documents (PDF text, OCR, DOCX...) and classifies them in
 * a child process of its own. Run from compiled output (`dist/`); see ClassifierPool.
 */
import { serveTasks } from './executor.child.js';
import { warmUpPdf } from '../readers/pdf.reader.js';
import { warmUpClassifier } from '../classify/classify.js';
import { runClassifyTask } from '../classify/classify.task.js';

// The sentence encoder, language model and pdf.js load once per process, when it starts
// (the executor says `ready` after; the API's start-up and /health never wait for it).
serveTasks(runClassifyTask, async () => {
  warmUpClassifier();
  await warmUpPdf();
});
