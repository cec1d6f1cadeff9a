/**
 * Writes, for every (set, model, document) of the evaluation sets, the language the
 * classifier detects in the document as each model reads it, and for every (set, schema
 * variant) the language it reads the request's statements in: whether a document and the
 * request share a language as the service sees it (winner-calibration-trial.ts
 * `--languages`, record 0528).
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/language-dump.js <file>
 */
import fs from 'node:fs';
import { ocrEffortOf } from '../../src/documents/classify/classify.task.js';
import { labelText } from '../../src/documents/classify/evidence.js';
import { clipLongWords } from '../../src/documents/classify/long-words.js';
import { documentLanguage, detectLanguage } from '../../src/documents/classify/language.js';
import { pagesOf } from '../../test/support/classify-eval.js';
import { loadRealEvalSet, REAL_EVAL_SETS } from '../../test/support/classify-eval-real.js';
import { SCHEMA_VARIANTS, schemaVariant } from '../../test/support/classify-eval-schemas.js';

export interface LanguageDump {
  /** Per `${set}/${model}/${id}`: the document's detected language. */
  documents: Record<string, string>;
  /** Per `${set}/${variant}`: the language of the schema's statements. */
  requests: Record<string, string>;
}

const file = process.argv[2];
if (!file) {
  console.log('usage: language-dump.js <file>');
  process.exit(2);
}
const dump: LanguageDump = { documents: {}, requests: {} };
for (const set of REAL_EVAL_SETS) {
  for (const variant of SCHEMA_VARIANTS.map((name) => schemaVariant(set, name))) {
    // As the lexical evidence reads them (keysOf): every category's name and criteria.
    const statements = variant.schema.flatMap((e) => [labelText(e.category), ...e.criteria]);
    dump.requests[`${set}/${variant.name}`] = detectLanguage(statements.join('. '));
  }
  for (const model of ['default', 'accurate'] as const) {
    const loaded = await loadRealEvalSet(['dev'], undefined, ocrEffortOf(model), set);
    for (const document of loaded.documents) {
      const texts = pagesOf(document).map((page) =>
        clipLongWords(typeof page === 'string' ? page : page.text),
      );
      dump.documents[`${set}/${model}/${document.file}`] = documentLanguage(texts);
    }
    console.log(`${set} ${model}: ${loaded.documents.length} documents`);
  }
}
fs.writeFileSync(file, JSON.stringify(dump));
console.log(`written to ${file}: ${JSON.stringify(dump.requests)}`);
