/**
 * Scores extract on real documents with published expected values
 * (bench/extract-eval/manifest.json, fetched by `node scripts/fetch-extract-eval.mjs`):
 * accuracy per field, per set and per language for default extract, deep extract and a
 * regular-expression baseline in the same run, and the latency of each mode.
 *
 * Run: npm run bench:extract-eval                scores the dev part
 *      npm run bench:extract-eval -- --holdout   the holdout part (only for a final check)
 *      npm run bench:extract-eval -- --verbose   also prints every wrong value
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectLanguage } from '../src/documents/classify/language.js';
import { extractDocument } from '../src/documents/extract/extract.operation.js';
import { loadLayoutDocument } from '../src/documents/parse/layout.loader.js';
import { pageText } from '../src/documents/parse/layout.types.js';
import { terminateOcr } from '../src/documents/readers/ocr.engine.js';
import { invoiceWithTerms, makeLayoutPdf } from '../test/support/layout-documents.js';
import { regexBaseline } from './extract-eval/regex-baseline.js';
import { isRight, loadEvalSet, SCHEMAS } from './extract-eval/scoring.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const split = process.argv.includes('--holdout') ? 'holdout' : 'dev';
const verbose = process.argv.includes('--verbose');
const { documents, missing } = loadEvalSet(root, split);
if (missing.length > 0)
  console.log(
    `${missing.length} documents missing from .cache/extract-eval: run node scripts/fetch-extract-eval.mjs`,
  );
if (documents.length === 0) process.exit(1);

type Mode = 'default' | 'deep' | 'regex';
const MODES: Mode[] = ['default', 'deep', 'regex'];
const tally = new Map<string, { right: number; total: number }>();
const count = (key: string, right: boolean) => {
  const t = tally.get(key) ?? { right: 0, total: 0 };
  t.total++;
  if (right) t.right++;
  tally.set(key, t);
};
const latency: Record<Mode, number[]> = { default: [], deep: [], regex: [] };
const failures: string[] = [];
/** Fields where deep and default answer differently, and which of them is right. */
const disagreements: string[] = [];

for (const doc of documents) {
  const bytes = fs.readFileSync(doc.file);
  const schema = SCHEMAS[doc.set];
  const name = path.basename(doc.file);
  const predictions = {} as Record<Mode, Record<string, unknown>>;
  let language = 'en';
  for (const mode of MODES) {
    const started = performance.now();
    const layout = await loadLayoutDocument(bytes, name);
    const text = layout.pages.map(pageText).join('\n');
    language = detectLanguage(text);
    predictions[mode] =
      mode === 'regex'
        ? regexBaseline(text)
        : extractDocument(layout, schema, {
            engine: 'label-typed',
            deepEngine: mode === 'deep' ? 'fuzzy-synonyms-described' : undefined,
            citations: false,
          }).result;
    latency[mode].push(performance.now() - started);
  }
  for (const [field, truth] of Object.entries(doc.truth)) {
    const [ofDefault, ofDeep] = [predictions.default[field], predictions.deep[field]];
    if (verbose && JSON.stringify(ofDefault) !== JSON.stringify(ofDeep)) {
      const mark = (value: unknown) => (isRight(field, value, truth, doc.set) ? 'right' : 'wrong');
      disagreements.push(
        `${doc.id} ${field}: default ${mark(ofDefault)} ${JSON.stringify(ofDefault)}, deep ${mark(ofDeep)} ${JSON.stringify(ofDeep)}, expected ${JSON.stringify(truth)}`,
      );
    }
    for (const mode of MODES) {
      const right = isRight(field, predictions[mode][field], truth, doc.set);
      count(`${mode}|field|${doc.set}.${field}`, right);
      count(`${mode}|language|${language}`, right);
      count(`${mode}|set|${doc.set}`, right);
      count(`${mode}|all|all`, right);
      // Fill rate and precision: how often a value is given at all, and how often a given
      // value is right (a wrong value costs a user more than an empty one).
      const given = !isEmpty(predictions[mode][field]);
      count(`${mode}|filled|${doc.set}`, given);
      if (given) count(`${mode}|precise|${doc.set}`, right);
      if (!right && verbose && mode !== 'regex')
        failures.push(
          `${mode.padEnd(7)} ${doc.id} ${field}: got ${JSON.stringify(predictions[mode][field])}, expected ${JSON.stringify(truth)}`,
        );
    }
  }
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

const pct = (key: string) => {
  const t = tally.get(key);
  return t
    ? `${((100 * t.right) / t.total).toFixed(1).padStart(5)} % (${t.right}/${t.total})`
    : '-';
};
const keys = (group: string) =>
  [
    ...new Set(
      [...tally.keys()].filter((k) => k.split('|')[1] === group).map((k) => k.split('|')[2]),
    ),
  ].sort();
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

console.log(
  `extract evaluation, ${split} part: ${documents.length} documents; ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(2)}`,
);
for (const group of ['field', 'set', 'filled', 'precise', 'language', 'all']) {
  const title =
    { filled: 'fill rate per set', precise: 'precision per set' }[group] ?? `per ${group}`;
  console.log(`\n${title}`.padEnd(32) + MODES.map((m) => m.padEnd(20)).join(''));
  for (const key of keys(group))
    console.log(
      `  ${key}`.padEnd(32) + MODES.map((m) => pct(`${m}|${group}|${key}`).padEnd(20)).join(''),
    );
}
console.log(
  `\np50 latency per document (load + extract): ${MODES.map((m) => `${m} ${median(latency[m]).toFixed(0)} ms`).join(', ')}`,
);

// The speed target is stated for a 2-page text PDF: a generated invoice with a page of
// terms, loaded and extracted RUNS times per mode (the first runs warm the caches).
const RUNS = 15;
const twoPages = (await makeLayoutPdf(invoiceWithTerms(2))).bytes;
const timed: Record<'default' | 'deep', number[]> = { default: [], deep: [] };
for (let run = 0; run < RUNS; run++) {
  for (const mode of ['default', 'deep'] as const) {
    const started = performance.now();
    extractDocument(await loadLayoutDocument(twoPages, 'invoice.pdf'), SCHEMAS.invoices, {
      engine: 'label-typed',
      deepEngine: mode === 'deep' ? 'fuzzy-synonyms-described' : undefined,
      citations: true,
    });
    timed[mode].push(performance.now() - started);
  }
}
console.log(
  `p50 latency, generated 2-page text PDF (load + extract, ${RUNS} runs): default ${median(timed.default).toFixed(0)} ms, deep ${median(timed.deep).toFixed(0)} ms`,
);
if (verbose) {
  console.log(`\n${failures.join('\n')}`);
  console.log(`\ndeep and default disagree:\n${disagreements.join('\n')}`);
}
// Pages of some contract PDFs are read by OCR: its worker thread is stopped so the process
// ends on its own.
await terminateOcr();
