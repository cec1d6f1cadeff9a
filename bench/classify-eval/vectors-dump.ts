/**
 * Writes the encoder's vectors of every document of the evaluation sets (its passages as
 * each model reads them, a wider sample of its chunks, its form's sentences) and of every
 * schema variant's names and criteria, with each criterion's lexical evidence per document:
 * the input of trials of other ways to score categories from passages (which passages,
 * how cosines are pooled and compared across categories) without running the encoder again.
 * Output: `<file>.json` (index) and `<file>.bin` (float32 vectors, 512 per row).
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/vectors-dump.js <file> [--holdout]
 */
import fs from 'node:fs';
import { ocrEffortOf } from '../../src/documents/classify/classify.task.js';
import { readDocument, warmUpClassifier } from '../../src/documents/classify/classify.js';
import { allChunks, allLines, selectChunks } from '../../src/documents/classify/chunks.js';
import {
  DOCUMENT_READING,
  labelSentence,
  labelText,
  lexicalFactor,
} from '../../src/documents/classify/evidence.js';
import { detectLanguage } from '../../src/documents/classify/language.js';
import { lexicalMatch, termsOf, weightKeys } from '../../src/documents/classify/lexical.js';
import { sentenceEncoder } from '../../src/documents/encoder/sentence-encoder.js';
import { pagesOf } from '../../test/support/classify-eval.js';
import { loadRealEvalSet, REAL_EVAL_SETS } from '../../test/support/classify-eval-real.js';
import { SCHEMA_VARIANTS, schemaVariant } from '../../test/support/classify-eval-schemas.js';

const file = process.argv[2];
const split = process.argv.includes('--holdout') ? 'holdout' : 'dev';
const encoder = sentenceEncoder();
if (!file || !encoder) process.exit(2);
encoder.rememberUpTo(50_000);
warmUpClassifier();

const vectors: Float32Array[] = [];
/** Appends vectors, returns the index of the first. */
function store(batch: readonly Float32Array[]): number {
  const at = vectors.length;
  vectors.push(...batch);
  return at;
}
const round = (value: number) => Math.round(value * 1e4) / 1e4;

const schemas: Record<
  string,
  { categories: string[]; label: number; bare: number; criteria: number[][] }
> = {};
const documents: unknown[] = [];
for (const set of REAL_EVAL_SETS) {
  const variants = SCHEMA_VARIANTS.map((name) => schemaVariant(set, name));
  for (const variant of variants) {
    const key = `${set}/${variant.name}`;
    const labels = store(encoder.embed(variant.schema.map((e) => labelSentence(e.category))));
    const bare = store(encoder.embed(variant.schema.map((e) => labelText(e.category))));
    schemas[key] = {
      categories: variant.schema.map((e) => e.category),
      label: labels,
      criteria: variant.schema.map((e) => {
        const at = store(encoder.embed(e.criteria));
        return e.criteria.map((_, i) => at + i);
      }),
      bare,
    };
  }
  for (const model of ['default', 'accurate'] as const) {
    const loaded = await loadRealEvalSet([split], undefined, ocrEffortOf(model), set);
    for (const document of loaded.documents) {
      const pages = pagesOf(document);
      const texts = pages.map((page) => (typeof page === 'string' ? page : page.text));
      const sizes = pages.map((page) => (typeof page === 'string' ? undefined : page.size));
      const reading = readDocument(texts, undefined, 0, 0, sizes);
      const chunks = allChunks(texts);
      const index = new Map(chunks.map((chunk, i) => [chunk, i]));
      const picks = new Map<number, number>();
      const mark = (budget: number, bit: number) =>
        selectChunks(chunks, budget).forEach((chunk) => {
          const i = index.get(chunk) ?? -1;
          picks.set(i, (picks.get(i) ?? 0) | bit);
        });
      mark(32, 1);
      mark(64, 2);
      mark(160, 4);
      const chosen = [...picks.keys()].sort((a, b) => a - b);
      const lines = selectChunks(allLines(texts), 24);
      const passageTexts = [...chosen.map((i) => chunks[i].text), ...lines.map((l) => l.text)];
      const first = store(encoder.embed(passageTexts));
      const form = store(encoder.embed(reading.form));
      const lexical: Record<string, number[][]> = {};
      const expected: Record<string, number> = {};
      for (const variant of variants) {
        const groups = variant.schema.map((e) => [labelText(e.category), ...e.criteria]);
        const criteriaLanguage = detectLanguage(groups.flat().join('. '));
        const keys = weightKeys(
          groups.map((g) => g.map((text) => termsOf(text, criteriaLanguage, 'content-or-all'))),
        );
        const length = Math.max(1, reading.bag.length / Math.max(1, reading.pageCount));
        const sameLanguage = reading.language === criteriaLanguage;
        const factor = lexicalFactor(keys, reading.bag, sameLanguage, DOCUMENT_READING);
        lexical[variant.name] = groups.map((g, c) =>
          g.map((_, i) => round(factor * lexicalMatch(keys[c][i], reading.bag, length))),
        );
        expected[variant.name] = variant.schema
          .map((e) => e.category)
          .indexOf(variant.expected(document.category));
      }
      documents.push({
        set,
        model,
        id: document.file,
        category: document.category,
        language: document.language,
        pages: texts.length,
        chunkCount: chunks.length,
        passages: {
          first,
          chunks: chosen.map((i) => [i, chunks[i].page, picks.get(i)]),
          lines: lines.map((l) => l.page),
        },
        form: { first: form, count: reading.form.length },
        lexical,
        expected,
      });
    }
    console.log(`${set} ${model}: ${loaded.documents.length} documents, ${vectors.length} vectors`);
  }
}
const out = new Float32Array(vectors.length * 512);
vectors.forEach((vector, i) => out.set(vector, i * 512));
fs.writeFileSync(`${file}.bin`, Buffer.from(out.buffer));
fs.writeFileSync(`${file}.json`, JSON.stringify({ schemas, documents }));
console.log(`${documents.length} documents, ${vectors.length} vectors written to ${file}.*`);
