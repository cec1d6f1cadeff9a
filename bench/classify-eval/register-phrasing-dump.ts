/**
 * Writes each schema variant's statements' cosines with another phrasing of the register
 * sentences (register.ts: second person, first person singular, plural, questions, then the
 * impersonal sentence), for register-trial.ts's `--phrasing` (record 0544). Statements only:
 * no document is read.
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/register-phrasing-dump.js
 *      <file> <sentence> x 5
 */
import fs from 'node:fs';
import { labelSentence } from '../../src/documents/classify/evidence.js';
import { cosine, sentenceEncoder } from '../../src/documents/encoder/sentence-encoder.js';
import { REAL_EVAL_SETS } from '../../test/support/classify-eval-real.js';
import { SCHEMA_VARIANTS, schemaVariant } from '../../test/support/classify-eval-schemas.js';

const [file, ...sentences] = process.argv.slice(2);
const encoder = sentenceEncoder();
if (!file || sentences.length !== 5 || !encoder) process.exit(2);
const r = (value: number) => Math.round(value * 1e4) / 1e4;
const vectors = encoder.embed(sentences);
const cosines: Record<string, number[][][]> = {};
for (const set of REAL_EVAL_SETS) {
  for (const name of SCHEMA_VARIANTS) {
    const variant = schemaVariant(set, name);
    cosines[`${set}/${variant.name}`] = variant.schema.map((e) =>
      encoder
        .embed([labelSentence(e.category), ...e.criteria])
        .map((v) => vectors.map((s) => r(cosine(v, s)))),
    );
  }
}
fs.writeFileSync(file, JSON.stringify({ sentences, cosines }));
console.log(`${Object.keys(cosines).length} schemas written to ${file}`);
