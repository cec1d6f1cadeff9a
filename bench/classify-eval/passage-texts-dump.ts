/**
 * Writes the development documents of both evaluation sets as the default model reads them
 * (the texts of its passages: chunks and single lines, no vectors) and every schema variant's
 * names and criteria: the input of trials of other sentence encoders run outside the service
 * on exactly the texts the service embeds. Development parts only: holdouts are not for
 * trials.
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/passage-texts-dump.js <file>
 */
import fs from 'node:fs';
import { ocrEffortOf } from '../../src/documents/classify/classify.task.js';
import { labelSentence, passagesOf } from '../../src/documents/classify/evidence.js';
import { pagesOf } from '../../test/support/classify-eval.js';
import { loadRealEvalSet, REAL_EVAL_SETS } from '../../test/support/classify-eval-real.js';
import { SCHEMA_VARIANTS, schemaVariant } from '../../test/support/classify-eval-schemas.js';

/** The default model's passage budgets: chunks, then single lines. */
const CHUNK_BUDGET = 32;
const LINE_BUDGET = 24;

const file = process.argv[2];
if (!file) process.exit(2);

const schemas: Record<string, { category: string; label: string; criteria: readonly string[] }[]> =
  {};
const documents: unknown[] = [];
for (const set of REAL_EVAL_SETS) {
  const variants = SCHEMA_VARIANTS.map((name) => schemaVariant(set, name));
  for (const variant of variants) {
    schemas[`${set}/${variant.name}`] = variant.schema.map((entry) => ({
      category: entry.category,
      label: labelSentence(entry.category),
      criteria: entry.criteria,
    }));
  }
  const loaded = await loadRealEvalSet(['dev'], undefined, ocrEffortOf('default'), set);
  for (const document of loaded.documents) {
    const texts = pagesOf(document).map((page) => (typeof page === 'string' ? page : page.text));
    const expected = Object.fromEntries(
      variants.map((variant) => [
        variant.name,
        variant.schema.map((entry) => entry.category).indexOf(variant.expected(document.category)),
      ]),
    );
    documents.push({
      set,
      id: document.file,
      category: document.category,
      language: document.language,
      pages: texts.length,
      passages: passagesOf(texts, undefined, CHUNK_BUDGET, LINE_BUDGET).map((p) => p.text),
      expected,
    });
  }
  console.log(`${set}: ${loaded.documents.length} documents`);
}
fs.writeFileSync(file, JSON.stringify({ schemas, documents }));
console.log(`${documents.length} documents written to ${file}`);
