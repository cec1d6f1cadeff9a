/**
 * Writes the evidence of every (set, schema variant, model, document) of the evaluation sets
 * as JSON: per category its name's and each criterion's semantic, lexical and layout
 * evidence, the label that counts as right, and each schema's criterion vectors' cosines.
 * The input of calibration-fit.ts (the fusion's calibration is fitted on it, by
 * cross-validation over the documents) and of trials of other fusion rules on the same
 * evidence without reading the documents again.
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/evidence-dump.js <file> [--holdout]
 *      [--only business/accurate]
 */
import fs from 'node:fs';
import { ocrEffortOf } from '../../src/documents/classify/classify.task.js';
import { schemaEvidence, warmUpClassifier } from '../../src/documents/classify/classify.js';
import type { ClassifyModel } from '../../src/documents/classify/classify.types.js';
import { cosine, sentenceEncoder } from '../../src/documents/encoder/sentence-encoder.js';
import { pagesOf } from '../../test/support/classify-eval.js';
import { loadRealEvalSet, REAL_EVAL_SETS } from '../../test/support/classify-eval-real.js';
import { SCHEMA_VARIANTS, schemaVariant } from '../../test/support/classify-eval-schemas.js';

type Triple = [semantic: number, lexical: number, layout: number, opening: number];
const round = (value: number) => Math.round(value * 1e5) / 1e5;

export interface EvidenceRow {
  set: string;
  variant: string;
  model: ClassifyModel;
  id: string;
  language?: string;
  /** The index in the schema of the category that counts as right. */
  expected: number;
  /** Per category: [label, ...criteria] evidence. */
  evidence: Triple[][];
  /** Per category, its share of the passages' votes (Deep Classify). */
  votes?: number[];
  /** Per category, its share of the whole pages' votes (Deep Classify, 2+ pages). */
  pageVotes?: number[];
}

const file = process.argv[2];
if (!file || file.startsWith('--')) {
  console.log('usage: evidence-dump.js <file> [--holdout]');
  process.exit(2);
}
const split = process.argv.includes('--holdout') ? 'holdout' : 'dev';
warmUpClassifier();
const rows: EvidenceRow[] = [];
const schemas: Record<string, { categories: string[]; criteria: string[][]; cosines: number[][] }> =
  {};
/** Cosines between every two criteria of the schema, criteria in schema order. */
function criteriaCosines(criteria: readonly string[]): number[][] {
  const vectors = sentenceEncoder()?.embed(criteria) ?? [];
  return vectors.map((a) => vectors.map((b) => Math.round(cosine(a, b) * 1e4) / 1e4));
}
/** `--only <set>/<model>`: that pair alone (several runs side by side, merged after). */
const only = process.argv.includes('--only')
  ? process.argv[process.argv.indexOf('--only') + 1]
  : '';
for (const set of REAL_EVAL_SETS) {
  for (const model of ['default', 'accurate'] as const) {
    if (only && !`${set}/${model}`.startsWith(only)) continue;
    const loaded = await loadRealEvalSet([split], undefined, ocrEffortOf(model), set);
    const variants = SCHEMA_VARIANTS.map((name) => schemaVariant(set, name));
    for (const variant of variants) {
      schemas[`${set}/${variant.name}`] = {
        categories: variant.schema.map((entry) => entry.category),
        criteria: variant.schema.map((entry) => [...entry.criteria]),
        cosines: criteriaCosines(variant.schema.flatMap((entry) => entry.criteria)),
      };
    }
    // Document by document, every variant in turn: the encoder's cache then holds the
    // document's passages for all of them.
    for (const document of loaded.documents) {
      for (const variant of variants) {
        const categories = variant.schema.map((entry) => entry.category);
        const { evidence } = schemaEvidence({
          pages: pagesOf(document),
          classificationSchema: variant.schema,
          model,
        });
        rows.push({
          set,
          variant: variant.name,
          model,
          id: document.file,
          language: document.language,
          expected: categories.indexOf(variant.expected(document.category)),
          evidence: evidence.map((category) =>
            [category.label, ...category.criteria].map((e): Triple => [
              round(e.semantic),
              round(e.lexical),
              round(e.layout),
              round(e.opening ?? 0),
            ]),
          ),
          ...(model === 'accurate'
            ? {
                votes: evidence.map((c) => round(c.votes ?? 0)),
                pageVotes: evidence.map((c) => round(c.pageVotes ?? 0)),
              }
            : {}),
        });
      }
    }
    console.log(`${set} ${model}: ${loaded.documents.length} documents`);
  }
}
fs.writeFileSync(file, JSON.stringify({ schemas, rows }));
console.log(`${rows.length} rows written to ${file}`);
