/**
 * Writes what generality-trial.ts needs to replay unpaged documents described by their length
 * instead of "A single page." (record 0465): for every dev document, whether it is one page
 * of a size the reader does not know (a text, Markdown or HTML file) and how many words it
 * has; for every schema, each statement's cosines with each length sentence.
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/length-dump.js <file>
 */
import fs from 'node:fs';
import { ocrEffortOf } from '../../src/documents/classify/classify.task.js';
import { labelSentence } from '../../src/documents/classify/evidence.js';
import { layoutProfile } from '../../src/documents/classify/layout.js';
import { cosine, sentenceEncoder } from '../../src/documents/encoder/sentence-encoder.js';
import { loadRealEvalSet, REAL_EVAL_SETS } from '../../test/support/classify-eval-real.js';
import { SCHEMA_VARIANTS, schemaVariant } from '../../test/support/classify-eval-schemas.js';
import { LENGTH_SENTENCES, type LengthDump } from './deep-dump.types.js';

const file = process.argv[2];
const encoder = sentenceEncoder();
if (!file || !encoder) process.exit(2);
const r = (value: number) => Math.round(value * 1e4) / 1e4;
const sentenceVectors = encoder.embed(LENGTH_SENTENCES.map(([, sentence]) => sentence));
const dump: LengthDump = { unpaged: {}, cosines: {} };
for (const set of REAL_EVAL_SETS) {
  for (const name of SCHEMA_VARIANTS) {
    const variant = schemaVariant(set, name);
    dump.cosines[`${set}/${variant.name}`] = variant.schema.map((e) =>
      encoder
        .embed([labelSentence(e.category), ...e.criteria])
        .map((v) => sentenceVectors.map((s) => r(cosine(v, s)))),
    );
  }
  const loaded = await loadRealEvalSet(['dev'], undefined, ocrEffortOf('accurate'), set);
  for (const document of loaded.documents) {
    if (document.pages.length !== 1 || document.pageSizes?.[0]) continue;
    const words = layoutProfile(document.pages).wordsPerPage;
    dump.unpaged[`${set}/${document.file}`] = Math.round(words);
  }
}
fs.writeFileSync(file, JSON.stringify(dump));
console.log(`${Object.keys(dump.unpaged).length} unpaged documents written to ${file}`);
