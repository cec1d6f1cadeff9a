/**
 * Scores both classification models on the real-document evaluation sets, side by side with
 * the naive word-overlap baseline on the same documents:
 * - `business`: bench/classify-eval/manifest.json, the eight business categories;
 * - `unseen`: bench/classify-eval/unseen/manifest.json, categories no model was written for;
 * each under four schema variants (its criteria, a reworded version, a coarse 3-category
 * schema and a fine schema of every category plus distractors: see classify-eval-schemas.ts).
 * Reports accuracy per set and variant, per category and per language, confusion matrices,
 * macro-F1, latency per page, and the expected calibration error and reliability table of
 * each model's `confidence`. Documents come from `node scripts/fetch-classify-eval.mjs`.
 *
 * Run: npm run bench:classify-eval                 dev parts of both sets, every variant
 *      npm run bench:classify-eval -- --holdout    holdout parts (only for a final change)
 *      npm run bench:classify-eval -- --set unseen --variants criteria,fine
 *      npm run bench:classify-eval -- --misses     lists each dev miss (never holdout ones)
 *      npm run bench:classify-eval -- --fixtures   adds the project's own labeled set
 *      npm run bench:classify-eval -- --criteria <file>   replaces the business set's criteria
 *      npm run bench:classify-eval -- --scores <file>     each model's raw scores, every set
 */
import os from 'node:os';
import { ocrEffortOf } from '../src/documents/classify/classify.task.js';
import { classify, warmUpClassifier } from '../src/documents/classify/classify.js';
import { sentenceEncoder } from '../src/documents/encoder/sentence-encoder.js';
import type {
  ClassificationCategory,
  ClassifyModel,
} from '../src/documents/classify/classify.types.js';
import { pagesOf, type EvalDocument } from '../test/support/classify-eval.js';
import {
  loadRealEvalSet,
  REAL_EVAL_SETS,
  type RealEvalSet,
  type RealEvalSetName,
} from '../test/support/classify-eval-real.js';
import {
  calibration,
  predictAll,
  score,
  wordOverlapBaseline,
  type Prediction,
  type Predictor,
} from '../test/support/classify-eval-metrics.js';
import {
  SCHEMA_VARIANTS,
  schemaVariant,
  type SchemaVariantName,
} from '../test/support/classify-eval-schemas.js';
import { fixturesReport } from './classify-eval/fixtures-report.js';
import {
  printBreakdown,
  printConfusion,
  printModelLines,
  printReliability,
  printSideBySide,
  type ModelRun,
  type VariantRun,
} from './classify-eval/report.js';
import { writeScores } from './classify-eval/scores-dump.js';

const split = process.argv.includes('--holdout') ? 'holdout' : 'dev';
/** The value after `--name`, undefined without the option; exits when the value is missing. */
function option(name: string, what: string): string | undefined {
  const at = process.argv.indexOf(name);
  if (at < 0) return undefined;
  const value = process.argv[at + 1];
  if (!value || value.startsWith('--')) {
    console.log(`${name} needs ${what}`);
    process.exit(2);
  }
  return value;
}
function listOption<T extends string>(name: string, allowed: readonly T[]): T[] {
  const value = option(name, `a comma-separated list of ${allowed.join(', ')}`);
  if (value === undefined) return [...allowed];
  const chosen = value.split(',').map((item) => item.trim());
  const unknown = chosen.filter((item) => !(allowed as readonly string[]).includes(item));
  if (unknown.length > 0) {
    console.log(`${name}: unknown ${unknown.join(', ')} (known: ${allowed.join(', ')})`);
    process.exit(2);
  }
  return chosen as T[];
}
const criteriaFile = option('--criteria', 'a file: a JSON array of { category, criteria }');
const scoresFile = option('--scores', 'a file: where to write the scores (JSON)');
const sets = listOption<RealEvalSetName>('--set', REAL_EVAL_SETS);
const variants = listOption<SchemaVariantName>('--variants', SCHEMA_VARIANTS);
const listMisses = split === 'dev' && process.argv.includes('--misses');

warmUpClassifier();
// Every document is read under four schemas by two models: its passages are embedded once.
sentenceEncoder()?.rememberUpTo(200_000);
const byModel =
  (model: ClassifyModel, schema: readonly ClassificationCategory[]): Predictor =>
  (document) => {
    const output = classify({ pages: pagesOf(document), classificationSchema: schema, model });
    const category = output.result.category;
    const confidence = output.response_confidence.categories.find(
      (entry) => entry.category === category,
    )?.confidence;
    return { category, confidence };
  };

function runModel(
  name: string,
  documents: readonly EvalDocument[],
  predictor: Predictor,
  categories: readonly string[],
  withConfidence: boolean,
): ModelRun & { predictions: Prediction[] } {
  predictAll(documents.slice(0, 5), predictor); // warm-up, not scored
  const predictions = predictAll(documents, predictor);
  const misses = predictions
    .filter((p) => p.got !== p.document.category)
    .map(
      (p) =>
        `${p.document.file} [${p.document.language}]: ${p.document.category} -> ` +
        `${p.error ? `error ${p.error}` : p.got}`,
    );
  const slowest = [...predictions]
    .sort((a, b) => b.msPerPage - a.msPerPage)
    .slice(0, 5)
    .map((p) => `${p.document.file}: ${p.msPerPage.toFixed(0)} ms/page`);
  return {
    name,
    scores: score(predictions, categories),
    calibration: withConfidence ? calibration(predictions) : undefined,
    misses,
    slowest,
    predictions,
  };
}

const results: VariantRun[] = [];
/** Every (model) prediction of every set and variant, pooled for the reliability table. */
const pooled: Record<string, Prediction[]> = { default: [], accurate: [] };
const loaded: Partial<Record<RealEvalSetName, { fast: RealEvalSet; thorough: RealEvalSet }>> = {};
for (const set of sets) {
  const criteria = set === 'business' ? criteriaFile : undefined;
  // Each model reads images as the service reads them for it (Deep Classify more thoroughly).
  const fast = await loadRealEvalSet([split], criteria, ocrEffortOf('default'), set);
  const thorough = await loadRealEvalSet([split], criteria, ocrEffortOf('accurate'), set);
  loaded[set] = { fast, thorough };
  if (fast.missing.length > 0) {
    console.log(
      `${fast.missing.length} documents of the ${set} set's ${split} part are not in ` +
        '.cache/classify-eval: run node scripts/fetch-classify-eval.mjs',
    );
  }
  for (const { id, reason } of fast.unreadable) console.log(`unreadable ${id}: ${reason}`);
  if (fast.documents.length === 0) continue;
  const pages = fast.documents.reduce((sum, document) => sum + document.pages.length, 0);
  const languages: Record<string, number> = {};
  for (const d of fast.documents)
    languages[d.language ?? '?'] = (languages[d.language ?? '?'] ?? 0) + 1;
  console.log(
    `${set} set, ${split} part: ${fast.documents.length} documents, ${pages} pages; ` +
      `languages ${JSON.stringify(languages)}`,
  );
  for (const name of variants) {
    console.log(`scoring the ${set} set under the ${name} schema`);
    const variant =
      name === 'criteria' && criteria
        ? { name, schema: fast.schema, expected: (category: string) => category }
        : schemaVariant(set, name);
    const relabel = (documents: readonly EvalDocument[]) =>
      documents.map((d) => ({ ...d, category: variant.expected(d.category) }));
    const documents = relabel(fast.documents);
    const categories = variant.schema.map((entry) => entry.category);
    const runs = [
      runModel('default', documents, byModel('default', variant.schema), categories, true),
      runModel(
        'accurate',
        relabel(thorough.documents),
        byModel('accurate', variant.schema),
        categories,
        true,
      ),
      runModel('baseline', documents, wordOverlapBaseline(variant.schema), categories, false),
    ];
    for (const run of runs) pooled[run.name]?.push(...run.predictions);
    results.push({ set, variant: name, categories, runs });
  }
}
if (results.length === 0) process.exit(1);

for (const result of results) {
  const first = result.variant === variants[0];
  console.log(`\n=== ${result.set} set, ${result.variant} schema, ${split} part ===`);
  printModelLines(result.runs);
  printBreakdown(result.runs, 'category', 'perCategory');
  printBreakdown(result.runs, 'language', 'perLanguage');
  if (!first) continue;
  printConfusion(result.runs, result.categories);
  // Misses of the dev part help whoever tunes the models; the holdout part is scored only.
  if (listMisses) {
    for (const { name, misses, slowest } of result.runs) {
      console.log(`\nmisses, ${name}:`);
      for (const miss of misses) console.log(`  ${miss}`);
      console.log(`slowest, ${name}: ${slowest.join(', ')}`);
    }
  }
}
for (const model of ['default', 'accurate']) {
  printReliability(`${model}, every set and schema variant above`, calibration(pooled[model]));
}
console.log(`\n=== every set and schema variant, ${split} part (accuracy, ECE of confidence) ===`);
printSideBySide(results);
console.log(
  `\nload average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ` +
    `${os.availableParallelism()} cores; latency is wall time of classify() per page`,
);
if (scoresFile) {
  writeScores(
    scoresFile,
    Object.fromEntries(
      Object.entries(loaded).map(([set, read]) => [
        set,
        { default: read.fast, accurate: read.thorough },
      ]),
    ),
  );
}
if (process.argv.includes('--fixtures')) await fixturesReport();
