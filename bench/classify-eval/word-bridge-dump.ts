/**
 * Writes what a trial of lexical evidence across languages read through the sentence encoder
 * needs without running the encoder again (word-bridge-trial.ts, record 0513): for every dev
 * document and model, its detected language, its word count, its distinct content stems with
 * their counts and most frequent word, and per schema variant the evidence as the service
 * gathers it; beside them, one vector per word (each word embedded alone) of the documents'
 * most frequent stems and of every statement of every schema.
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/word-bridge-dump.js <file>
 *      (writes <file>.json and <file>.f32)
 */
import fs from 'node:fs';
import { ocrEffortOf } from '../../src/documents/classify/classify.task.js';
import { schemaEvidence, warmUpClassifier } from '../../src/documents/classify/classify.js';
import type { PageText } from '../../src/documents/classify/classify.types.js';
import {
  documentBag,
  keysOf,
  labelText,
  type CategoryEvidence,
} from '../../src/documents/classify/evidence.js';
import { documentLanguage } from '../../src/documents/classify/language.js';
import { wordTermsOf } from '../../src/documents/classify/lexical.js';
import { clipLongWords } from '../../src/documents/classify/long-words.js';
import { sentenceEncoder } from '../../src/documents/encoder/sentence-encoder.js';
import { pagesOf } from '../../test/support/classify-eval.js';
import { loadRealEvalSet, REAL_EVAL_SETS } from '../../test/support/classify-eval-real.js';
import { SCHEMA_VARIANTS, schemaVariant } from '../../test/support/classify-eval-schemas.js';

/** Stems kept per document, most frequent first. */
const KEPT_STEMS = 400;

export interface BridgeStem {
  key: string;
  word: string;
  count: number;
}

export interface BridgeRow {
  set: string;
  model: 'default' | 'accurate';
  variant: string;
  id: string;
  language: string;
  manifestLanguage?: string;
  bagLength: number;
  pageCount: number;
  expected: number;
  evidence: CategoryEvidence[];
}

export interface BridgeDump {
  /** Per document id: its content stems, most frequent first (KEPT_STEMS at most). */
  stems: Record<string, BridgeStem[]>;
  /** Per `${set}/${variant}`: the schema's statements ([name, ...criteria] per category). */
  texts: Record<string, string[][]>;
  rows: BridgeRow[];
  /** Words with a vector, in the order of the .f32 file (512 floats each). */
  words: string[];
}

const file = process.argv[2];
const encoder = sentenceEncoder();
if (!file || !encoder) process.exit(2);
encoder.rememberUpTo(60_000);
warmUpClassifier();

const words: string[] = [];
const wordIndex = new Map<string, number>();
const vectors: Float32Array[] = [];
function addWords(list: readonly string[]): void {
  const missing = [...new Set(list.filter((w) => !wordIndex.has(w)))];
  for (let i = 0; i < missing.length; i += 256) {
    const batch = missing.slice(i, i + 256);
    encoder!.embed(batch).forEach((vector, k) => {
      wordIndex.set(batch[k], words.length);
      words.push(batch[k]);
      vectors.push(vector);
    });
  }
}

const dump: BridgeDump = { stems: {}, texts: {}, rows: [], words };
const text = (page: PageText) => (typeof page === 'string' ? page : page.text);
const round = (value: number) => Math.round(value * 1e5) / 1e5;
const compact = (evidence: CategoryEvidence[]): CategoryEvidence[] =>
  evidence.map((category) => {
    const one = (e: CategoryEvidence['label']) => ({
      semantic: round(e.semantic),
      passage: e.passage,
      lexical: round(e.lexical),
      layout: round(e.layout),
      ...(e.opening !== undefined ? { opening: round(e.opening) } : {}),
    });
    return {
      label: one(category.label),
      criteria: category.criteria.map(one),
      ...(category.votes !== undefined ? { votes: category.votes } : {}),
      ...(category.pageVotes !== undefined ? { pageVotes: category.pageVotes } : {}),
    };
  });

for (const set of REAL_EVAL_SETS) {
  const variants = SCHEMA_VARIANTS.map((name) => schemaVariant(set, name));
  for (const variant of variants) {
    const texts = variant.schema.map((e) => [labelText(e.category), ...e.criteria]);
    dump.texts[`${set}/${variant.name}`] = texts;
    addWords(
      keysOf(texts)
        .terms.flat(2)
        .map((t) => t.word),
    );
  }
  for (const model of ['default', 'accurate'] as const) {
    const loaded = await loadRealEvalSet(['dev'], undefined, ocrEffortOf(model), set);
    const started = Date.now();
    for (const document of loaded.documents) {
      const pages = pagesOf(document);
      const plain = pages.map((page) => clipLongWords(text(page)));
      const language = documentLanguage(plain, undefined);
      const bag = documentBag(plain, undefined, language);
      const id = `${set}/${model}/${document.file}`;
      const counts = new Map<string, Map<string, number>>();
      for (const { key, word } of wordTermsOf(plain.join('\n'), language, 'content')) {
        const forms = counts.get(key) ?? new Map<string, number>();
        forms.set(word, (forms.get(word) ?? 0) + 1);
        counts.set(key, forms);
      }
      const stems = [...counts.entries()]
        .map(([key, forms]) => {
          const [word] = [...forms.entries()].sort(
            (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1),
          )[0];
          const count = [...forms.values()].reduce((sum, n) => sum + n, 0);
          return { key, word, count };
        })
        .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1))
        .slice(0, KEPT_STEMS);
      dump.stems[id] = stems;
      addWords(stems.map((s) => s.word));
      for (const variant of variants) {
        const { schema, evidence } = schemaEvidence({
          pages,
          classificationSchema: variant.schema,
          model,
        });
        dump.rows.push({
          set,
          model,
          variant: variant.name,
          id,
          language,
          manifestLanguage: document.language,
          bagLength: bag.length,
          pageCount: plain.length,
          expected: schema
            .map((entry) => entry.category)
            .indexOf(variant.expected(document.category)),
          evidence: compact(evidence),
        });
      }
    }
    console.log(
      `${set} ${model}: ${loaded.documents.length} documents, ${Math.round((Date.now() - started) / 1000)} s, ${words.length} words`,
    );
  }
}
fs.writeFileSync(`${file}.json`, JSON.stringify(dump));
const out = new Float32Array(vectors.length * 512);
vectors.forEach((vector, i) => out.set(vector, i * 512));
fs.writeFileSync(`${file}.f32`, Buffer.from(out.buffer));
console.log(`${dump.rows.length} rows, ${words.length} words written to ${file}.json / .f32`);
