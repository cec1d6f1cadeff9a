/**
 * Writes every model's raw score per category for each document, with the pages it read, as
 * JSON: the input of trials of other evidence beside the models (encoder-trial.py), which
 * need the same documents, the same scores and the same ties as the service.
 * Run: npm run bench:classify-eval -- --scores <file> [--holdout] [--criteria <file>]
 */
import fs from 'node:fs';
import { scoreCategories } from '../../src/documents/classify/classify.js';
import type { ClassifyModel } from '../../src/documents/classify/classify.types.js';
import type { EvalSet } from '../../test/support/classify-eval.js';

export interface ScoredDocument {
  model: ClassifyModel;
  id: string;
  category: string;
  language?: string;
  scores: Record<string, number>;
  pages: readonly string[];
}

export function writeScores(file: string, sets: Record<ClassifyModel, EvalSet>): void {
  const rows: ScoredDocument[] = [];
  for (const model of ['default', 'accurate'] as const) {
    const { schema, documents } = sets[model];
    for (const document of documents) {
      const scores = scoreCategories({
        pages: document.pages,
        classificationSchema: schema,
        model,
      });
      rows.push({
        model,
        id: document.file,
        category: document.category,
        language: document.language,
        scores: Object.fromEntries(schema.map((entry, i) => [entry.category, scores[i].score])),
        pages: document.pages,
      });
    }
  }
  fs.writeFileSync(file, JSON.stringify(rows));
  console.log(`\nscores of ${rows.length} (model, document) pairs written to ${file}`);
}
