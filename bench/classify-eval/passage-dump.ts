/**
 * Writes, for every (set, model, document, schema variant) of the evaluation sets, each
 * criterion's cosines with the document's passages in a compact form (the best five, the
 * mean, the first passage's), its lexical and layout evidence, and the languages of the
 * document and of the schema: the input of trials of other ways to read the encoder's
 * passage scores and weigh the evidence sources, without reading the documents again.
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/passage-dump.js <file> [--holdout]
 */
import fs from 'node:fs';
import { ocrEffortOf } from '../../src/documents/classify/classify.task.js';
import { readDocument, warmUpClassifier } from '../../src/documents/classify/classify.js';
import { labelSentence, labelText } from '../../src/documents/classify/evidence.js';
import { detectLanguage } from '../../src/documents/classify/language.js';
import { lexicalMatch, termsOf, weightKeys } from '../../src/documents/classify/lexical.js';
import { cosine, sentenceEncoder } from '../../src/documents/encoder/sentence-encoder.js';
import { pagesOf } from '../../test/support/classify-eval.js';
import { loadRealEvalSet, REAL_EVAL_SETS } from '../../test/support/classify-eval-real.js';
import { SCHEMA_VARIANTS, schemaVariant } from '../../test/support/classify-eval-schemas.js';

const BUDGET = { default: [32, 24], accurate: [64, 24] } as const;
const round = (value: number) => Math.round(value * 1e4) / 1e4;
const file = process.argv[2];
const split = process.argv.includes('--holdout') ? 'holdout' : 'dev';
const encoder = sentenceEncoder();
if (!file || !encoder) process.exit(2);
encoder.rememberUpTo(200_000);
warmUpClassifier();

interface Row {
  set: string;
  variant: string;
  model: string;
  id: string;
  language?: string;
  docLanguage?: string;
  criteriaLanguage: string;
  expected: number;
  pages: number;
  passages: number;
  /** Per category, [label, ...criteria]: [top5..., mean, first, lexical, layout]. */
  evidence: number[][][];
}
const rows: Row[] = [];
for (const set of REAL_EVAL_SETS) {
  for (const model of ['default', 'accurate'] as const) {
    const loaded = await loadRealEvalSet([split], undefined, ocrEffortOf(model), set);
    const variants = SCHEMA_VARIANTS.map((name) => schemaVariant(set, name));
    for (const document of loaded.documents) {
      const pages = pagesOf(document);
      const texts = pages.map((page) => (typeof page === 'string' ? page : page.text));
      const sizes = pages.map((page) => (typeof page === 'string' ? undefined : page.size));
      const [chunks, lines] = BUDGET[model];
      const reading = readDocument(texts, undefined, chunks, lines, sizes);
      const passageVectors = encoder.embed(reading.passages.map((p) => p.text));
      const formVectors = encoder.embed(reading.form);
      for (const variant of variants) {
        const schema = variant.schema;
        const groups = schema.map((entry) => [labelText(entry.category), ...entry.criteria]);
        const criteriaLanguage = detectLanguage(groups.flat().join('. '));
        const keys = weightKeys(
          groups.map((group) =>
            group.map((text) => termsOf(text, criteriaLanguage, 'content-or-all')),
          ),
        );
        const length = Math.max(1, reading.bag.length / Math.max(1, reading.pageCount));
        const evidence = schema.map((entry, c) => {
          const vectors = encoder.embed([labelSentence(entry.category), ...entry.criteria]);
          return vectors.map((vector, i) => {
            const cosines = passageVectors.map((p) => cosine(vector, p));
            const sorted = [...cosines].sort((a, b) => b - a);
            const top = [0, 1, 2, 3, 4].map((k) => sorted[Math.min(k, sorted.length - 1)] ?? 0);
            const mean = cosines.reduce((s, v) => s + v, 0) / Math.max(1, cosines.length);
            const layout =
              formVectors.length > 0 ? Math.max(...formVectors.map((f) => cosine(vector, f))) : 0;
            return [
              ...top,
              mean,
              cosines[0] ?? 0,
              lexicalMatch(keys[c][i], reading.bag, length),
              layout,
            ].map(round);
          });
        });
        rows.push({
          set,
          variant: variant.name,
          model,
          id: document.file,
          language: document.language,
          docLanguage: reading.language,
          criteriaLanguage,
          expected: schema
            .map((entry) => entry.category)
            .indexOf(variant.expected(document.category)),
          pages: texts.length,
          passages: passageVectors.length,
          evidence,
        });
      }
    }
    console.log(`${set} ${model}: ${loaded.documents.length} documents`);
  }
}
fs.writeFileSync(file, JSON.stringify(rows));
console.log(`${rows.length} rows written to ${file}`);
