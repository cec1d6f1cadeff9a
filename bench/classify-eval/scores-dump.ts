/**
 * Writes every model's raw score per category for each document, with the pages it read, as
 * JSON: the input of trials of other evidence beside the models (encoder-trial.py), which
 * need the same documents, the same scores and the same ties as the service.
 * Each row names its set (`business`, `unseen`); the scores are under the set's own criteria.
 * Run: npm run bench:classify-eval -- --scores <file> [--holdout] [--set unseen] [--criteria <file>]
 */
import fs from 'node:fs';
import { scoreCategories } from '../../src/documents/classify/classify.js';
import type { ClassifyModel } from '../../src/documents/classify/classify.types.js';
import type { EvalSet } from '../../test/support/classify-eval.js';

export interface ScoredDocument {
  /** The evaluation set: `business` or `unseen`. */
  set: string;
  model: ClassifyModel;
  id: string;
  category: string;
  language?: string;
  scores: Record<string, number>;
  pages: readonly string[];
}

/** `sets`: per evaluation set, the documents as each model reads them. */
export function writeScores(
  file: string,
  sets: Record<string, Record<ClassifyModel, EvalSet>>,
): void {
  const rows: ScoredDocument[] = [];
  for (const [set, byModel] of Object.entries(sets)) rows.push(...scoreSet(set, byModel));
  fs.writeFileSync(file, JSON.stringify(rows));
  console.log(`\nscores of ${rows.length} (model, document) pairs written to ${file}`);
}

function scoreSet(set: string, sets: Record<ClassifyModel, EvalSet>): ScoredDocument[] {
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
        set,
        model,
        id: document.file,
        category: document.category,
        language: document.language,
        scores: Object.fromEntries(schema.map((entry, i) => [entry.category, scores[i].score])),
        pages: document.pages,
      });
    }
  }
  return rows;
}
