/**
 * Accuracy of both models on the multilingual documents of test/support, per language and
 * per category, with the evaluation set's schema (English criteria) or another schema file.
 * Run: npm run bench:classify-multilingual [-- path/to/schema.json]
 */
import fs from 'node:fs';
import { classify, warmUpClassifier } from '../src/documents/classify/classify.js';
import type { ClassificationCategory } from '../src/documents/classify/classify.types.js';
import { loadEvalSet } from '../test/support/classify-eval.js';
import { MULTILINGUAL_DOCUMENTS } from '../test/support/multilingual-documents.js';

const schemaFile = process.argv[2];
const schema: ClassificationCategory[] = schemaFile
  ? JSON.parse(fs.readFileSync(schemaFile, 'utf8'))
  : (await loadEvalSet()).schema;
warmUpClassifier();

for (const model of ['default', 'accurate'] as const) {
  const byLanguage = new Map<string, { correct: number; total: number }>();
  const misses: string[] = [];
  for (const document of MULTILINGUAL_DOCUMENTS) {
    const output = classify({
      pages: document.text.split('\f'),
      classificationSchema: schema,
      model,
    });
    const ok = output.result.category === document.category;
    const entry = byLanguage.get(document.language) ?? { correct: 0, total: 0 };
    entry.total++;
    if (ok) entry.correct++;
    else misses.push(`${document.language}/${document.category} -> ${output.result.category}`);
    byLanguage.set(document.language, entry);
  }
  const total = [...byLanguage.values()].reduce((s, e) => s + e.correct, 0);
  console.log(
    `${model.padEnd(8)} ${total}/${MULTILINGUAL_DOCUMENTS.length}  ` +
      [...byLanguage].map(([l, e]) => `${l} ${e.correct}/${e.total}`).join('  '),
  );
  for (const miss of misses) console.log(`  miss ${miss}`);
}
