/**
 * Accuracy of both classification models on the labeled evaluation set, and their
 * throughput in pages per second on one core (this process, after warm-up).
 * Run: npm run bench:classify-eval
 */
import { classify, warmUpClassifier } from '../src/processing/classify/classify.js';
import type { ClassifyModel } from '../src/processing/classify/classify.types.js';
import { evaluate, loadEvalSet } from '../test/support/classify-eval.js';

const set = await loadEvalSet();
warmUpClassifier();
const pageCount = set.documents.reduce((sum, document) => sum + document.pages.length, 0);
console.log(
  `evaluation set: ${set.documents.length} documents, ${pageCount} pages, ` +
    `${set.schema.length} categories`,
);

function throughput(model: ClassifyModel, rounds: number): number {
  const run = () => {
    for (const document of set.documents) {
      classify({
        pages: document.pages,
        classificationSchema: set.schema,
        documentMetadata: document.documentMetadata,
        model,
      });
    }
  };
  run();
  const start = performance.now();
  for (let i = 0; i < rounds; i++) run();
  const seconds = (performance.now() - start) / 1000;
  return (pageCount * rounds) / seconds;
}

/** Latency of one 5-page document (pages of ~400 words), median of many runs. */
function fivePageLatency(model: ClassifyModel): number {
  const words = set.documents.flatMap((document) => document.pages.join(' ').split(/\s+/));
  const pages = Array.from({ length: 5 }, (_, p) => words.slice(p * 400, p * 400 + 400).join(' '));
  const times: number[] = [];
  for (let i = 0; i < 60; i++) {
    const start = performance.now();
    classify({ pages, classificationSchema: set.schema, model });
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const results = [];
for (const model of ['default', 'accurate'] as const) {
  const outcome = evaluate(set, model);
  const dev = evaluate(set, model, 'dev');
  const holdout = evaluate(set, model, 'holdout');
  const pagesPerSecond = throughput(model, 5);
  const latency = fivePageLatency(model);
  results.push({ ...outcome, pagesPerSecond, latency });
  const percent = (o: { accuracy: number; correct: number; total: number }) =>
    `${(o.accuracy * 100).toFixed(1)}% (${o.correct}/${o.total})`;
  console.log(
    `${model.padEnd(8)} accuracy all ${percent(outcome)}  dev ${percent(dev)}  ` +
      `holdout ${percent(holdout)}  ${pagesPerSecond.toFixed(0)} pages/s  ` +
      `5-page p50 ${latency.toFixed(1)} ms`,
  );
  for (const miss of outcome.misses) {
    console.log(`  miss ${miss.file}: expected ${miss.expected}, got ${miss.got}`);
  }
}
const [fast, deep] = results;
console.log(
  `accurate vs default: +${((deep.accuracy - fast.accuracy) * 100).toFixed(1)} points, ` +
    `${(fast.pagesPerSecond / deep.pagesPerSecond).toFixed(1)}x slower`,
);
