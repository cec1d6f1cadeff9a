/**
 * Scores both classification models on the real-document evaluation set
 * (bench/classify-eval/manifest.json, fetched by `node scripts/fetch-classify-eval.mjs`):
 * accuracy per model, per category and per language, confusion matrices, macro-F1, latency
 * per page, and the naive word-overlap baseline on the same documents.
 *
 * Run: npm run bench:classify-eval            scores the dev part
 *      npm run bench:classify-eval -- --holdout   scores the holdout part (only for a final change)
 *      npm run bench:classify-eval -- --fixtures  adds the project's own labeled set
 *      npm run bench:classify-eval -- --criteria bench/classify-eval/criteria-alt.json
 *                                                 scores with another wording of the criteria
 *      npm run bench:classify-eval -- --scores <file>  also writes each model's raw scores
 */
import os from 'node:os';
import { ocrEffortOf } from '../src/documents/classify/classify.task.js';
import { classify, warmUpClassifier } from '../src/documents/classify/classify.js';
import type { ClassifyModel } from '../src/documents/classify/classify.types.js';
import { loadRealEvalSet } from '../test/support/classify-eval-real.js';
import {
  predictAll,
  score,
  wordOverlapBaseline,
  type Predictor,
  type Scores,
} from '../test/support/classify-eval-metrics.js';
import { fixturesReport } from './classify-eval/fixtures-report.js';
import { writeScores } from './classify-eval/scores-dump.js';

const split = process.argv.includes('--holdout') ? 'holdout' : 'dev';
/** The value after `--name`, undefined without the option; exits when the value is missing. */
function fileOption(name: string, what: string): string | undefined {
  const at = process.argv.indexOf(name);
  if (at < 0) return undefined;
  const file = process.argv[at + 1];
  if (!file || file.startsWith('--')) {
    console.log(`${name} needs a file: ${what}`);
    process.exit(2);
  }
  return file;
}
const criteriaFile = fileOption('--criteria', 'a JSON array of { category, criteria }');
const scoresFile = fileOption('--scores', 'where to write the scores (JSON)');
// Each model reads images as the service reads them for it (Deep Classify more thoroughly).
const set = await loadRealEvalSet([split], criteriaFile, ocrEffortOf('default'));
const thoroughSet = await loadRealEvalSet([split], criteriaFile, ocrEffortOf('accurate'));
if (criteriaFile) console.log(`criteria: ${criteriaFile}`);
if (set.missing.length > 0) {
  console.log(
    `${set.missing.length} documents of the ${split} part are not in .cache/classify-eval: ` +
      'run node scripts/fetch-classify-eval.mjs',
  );
}
for (const { id, reason } of set.unreadable) console.log(`unreadable ${id}: ${reason}`);
if (set.documents.length === 0) process.exit(1);

const categories = set.schema.map((category) => category.category);
const count = (key: (d: (typeof set.documents)[number]) => string) =>
  set.documents.reduce<Record<string, number>>((acc, d) => {
    acc[key(d)] = (acc[key(d)] ?? 0) + 1;
    return acc;
  }, {});
const pages = set.documents.reduce((sum, document) => sum + document.pages.length, 0);
console.log(
  `real-document set, ${split} part: ${set.documents.length} documents, ${pages} pages; ` +
    `languages ${JSON.stringify(count((d) => d.language ?? 'unknown'))}`,
);

warmUpClassifier();
const byModel =
  (model: ClassifyModel): Predictor =>
  (document) =>
    classify({ pages: document.pages, classificationSchema: set.schema, model }).result.category;
const runs: { name: string; documents: typeof set.documents; predictor: Predictor }[] = [
  { name: 'default', documents: set.documents, predictor: byModel('default') },
  { name: 'accurate', documents: thoroughSet.documents, predictor: byModel('accurate') },
  { name: 'baseline', documents: set.documents, predictor: wordOverlapBaseline(set.schema) },
];
const results: { name: string; scores: Scores; misses: string[]; slowest: string[] }[] = [];
for (const { name, documents, predictor } of runs) {
  predictAll(documents.slice(0, 10), predictor); // warm-up, not scored
  const predictions = predictAll(documents, predictor);
  const misses = predictions
    .filter((p) => p.got !== p.document.category)
    .map(
      (p) =>
        `${p.document.file}: ${p.document.category} -> ${p.error ? `error ${p.error}` : p.got}`,
    );
  const slowest = [...predictions]
    .sort((a, b) => b.msPerPage - a.msPerPage)
    .slice(0, 5)
    .map((p) => `${p.document.file}: ${p.msPerPage.toFixed(0)} ms/page`);
  results.push({ name, scores: score(predictions, categories), misses, slowest });
}

const pct = (correct: number, total: number) =>
  total === 0 ? '   -  ' : `${((correct / total) * 100).toFixed(1).padStart(5)}%`;
console.log('\nmodel     accuracy         macro-F1  errors  ms/page p50  p95');
for (const { name, scores: s } of results) {
  console.log(
    `${name.padEnd(9)} ${pct(s.correct, s.total)} (${s.correct}/${s.total})`.padEnd(27) +
      `${s.macroF1.toFixed(3).padStart(7)}  ${String(s.errors).padStart(6)}  ` +
      `${s.p50MsPerPage.toFixed(1).padStart(11)}  ${s.p95MsPerPage.toFixed(1).padStart(5)}`,
  );
}

function breakdown(title: string, key: 'perCategory' | 'perLanguage'): void {
  console.log(`\n${title.padEnd(16)}   n  ${results.map((r) => r.name.padStart(8)).join(' ')}`);
  const keys = Object.keys(results[0].scores[key]).sort();
  for (const k of keys) {
    const total = results[0].scores[key][k].total;
    const cells = results.map((r) => pct(r.scores[key][k]?.correct ?? 0, total).padStart(8));
    console.log(`${k.padEnd(16)} ${String(total).padStart(3)}  ${cells.join(' ')}`);
  }
}
breakdown('category', 'perCategory');
breakdown('language', 'perLanguage');

const short = (category: string) => category.slice(0, 6);
for (const { name, scores: s } of results) {
  console.log(`\nconfusion, ${name} (rows: expected, columns: chosen)`);
  const columns = [...categories, 'none'];
  console.log(`${''.padEnd(15)}${columns.map((c) => short(c).padStart(7)).join('')}`);
  for (const expected of categories.filter((c) => s.confusion[c])) {
    const row = columns.map((c) => String(s.confusion[expected][c] ?? '.').padStart(7));
    console.log(`${expected.padEnd(15)}${row.join('')}`);
  }
}

// Misses of the dev part help whoever tunes the models; the holdout part is scored only.
if (split === 'dev' && process.argv.includes('--misses')) {
  for (const { name, misses, slowest } of results) {
    console.log(`\nmisses, ${name}:`);
    for (const miss of misses) console.log(`  ${miss}`);
    console.log(`slowest, ${name}: ${slowest.join(', ')}`);
  }
}
console.log(
  `\nload average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ` +
    `${os.availableParallelism()} cores; latency is wall time of classify() per page`,
);
if (scoresFile) writeScores(scoresFile, { default: set, accurate: thoroughSet });
if (process.argv.includes('--fixtures')) await fixturesReport();
