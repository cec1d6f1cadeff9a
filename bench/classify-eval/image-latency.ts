/**
 * Wall time of one classify task (read and classify, as the executor runs it) on image
 * documents of the evaluation cache, per model: OCR dominates, so this is where Deep
 * Classify's thorough reading costs. Models alternate within each round so load drifts
 * hit both alike. Prints p50 and mean per model.
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/image-latency.js [rounds]
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { runClassifyTask } from '../../src/documents/classify/classify.task.js';
import { warmUpClassifier } from '../../src/documents/classify/classify.js';
import type { ClassifyModel } from '../../src/documents/classify/classify.types.js';
import { terminateOcr } from '../../src/documents/readers/ocr.engine.js';
import { readCriteria } from '../../test/support/classify-eval-real.js';

const FILES = [
  'rec-vision-data-a-lidl-02032020-02-00716.jpg',
  'rec-vision-data-c-tanke-07092018-01-03935.jpg',
  'rec-azure-di-receipt-spanish.png',
  'tax-azure-di-1099-div-filled.png',
];
const rounds = Number(process.argv[2] ?? 3);
const docs = path.join('.cache', 'classify-eval', 'docs');
const schema = readCriteria('business');
warmUpClassifier();

const times: Record<ClassifyModel, number[]> = { default: [], accurate: [] };
const run = async (file: string, model: ClassifyModel) => {
  const bytes = new Uint8Array(fs.readFileSync(path.join(docs, file)));
  const started = performance.now();
  await runClassifyTask({
    documents: [{ bytes, name: file }],
    classificationSchema: schema,
    model,
  });
  return performance.now() - started;
};
await run(FILES[0], 'default'); // starts the OCR worker, not timed
for (let round = 0; round < rounds; round++) {
  for (const file of FILES) {
    for (const model of round % 2 === 0
      ? (['default', 'accurate'] as const)
      : (['accurate', 'default'] as const)) {
      times[model].push(await run(file, model));
    }
  }
}
await terminateOcr();
for (const model of ['default', 'accurate'] as const) {
  const sorted = [...times[model]].sort((a, b) => a - b);
  const mean = sorted.reduce((s, v) => s + v, 0) / sorted.length;
  console.log(
    `${model}: p50 ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, mean ${mean.toFixed(0)} ms over ${sorted.length}`,
  );
}
