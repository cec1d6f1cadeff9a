/**
 * Scores a classifier on an evaluation set: accuracy overall, per category and per language,
 * confusion matrix, macro-F1 and latency per page; and the naive word-overlap baseline that
 * every model is compared with on the same documents.
 */
import type { ClassificationCategory } from '../../src/documents/classify/classify.types.js';
import type { EvalDocument } from './classify-eval.js';

/** Predicts a category for one document; throwing counts as an error, not a miss. */
export type Predictor = (document: EvalDocument) => string | null;

export interface Prediction {
  document: EvalDocument;
  got: string | null;
  error?: string;
  /** Wall time of the prediction divided by the document's pages. */
  msPerPage: number;
}

export interface Tally {
  correct: number;
  total: number;
}

export interface Scores {
  accuracy: number;
  correct: number;
  total: number;
  errors: number;
  perCategory: Record<string, Tally>;
  perLanguage: Record<string, Tally>;
  /** confusion[expected][got]; `got` is `none` when nothing was chosen or it threw. */
  confusion: Record<string, Record<string, number>>;
  macroF1: number;
  p50MsPerPage: number;
  p95MsPerPage: number;
}

export function predictAll(documents: readonly EvalDocument[], predict: Predictor): Prediction[] {
  return documents.map((document) => {
    const start = performance.now();
    let got: string | null = null;
    let error: string | undefined;
    try {
      got = predict(document);
    } catch (thrown) {
      error = thrown instanceof Error ? thrown.message : String(thrown);
    }
    const msPerPage = (performance.now() - start) / Math.max(1, document.pages.length);
    return { document, got, error, msPerPage };
  });
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

function bump(tallies: Record<string, Tally>, key: string, correct: boolean): void {
  const tally = (tallies[key] ??= { correct: 0, total: 0 });
  tally.total++;
  if (correct) tally.correct++;
}

export function score(predictions: readonly Prediction[], categories: readonly string[]): Scores {
  const perCategory: Record<string, Tally> = {};
  const perLanguage: Record<string, Tally> = {};
  const confusion: Record<string, Record<string, number>> = {};
  let correct = 0;
  for (const { document, got } of predictions) {
    const hit = got === document.category;
    if (hit) correct++;
    bump(perCategory, document.category, hit);
    bump(perLanguage, document.language ?? 'unknown', hit);
    const row = (confusion[document.category] ??= {});
    row[got ?? 'none'] = (row[got ?? 'none'] ?? 0) + 1;
  }
  // Macro-F1 over the schema's categories: each category's F1 weighs the same.
  const f1s = categories.map((category) => {
    const truePositives = confusion[category]?.[category] ?? 0;
    const predicted = Object.values(confusion).reduce((sum, row) => sum + (row[category] ?? 0), 0);
    const actual = perCategory[category]?.total ?? 0;
    if (predicted + actual === 0) return undefined;
    return (2 * truePositives) / (predicted + actual);
  });
  const defined = f1s.filter((f1): f1 is number => f1 !== undefined);
  const latencies = predictions.map((p) => p.msPerPage).sort((a, b) => a - b);
  return {
    accuracy: predictions.length === 0 ? 0 : correct / predictions.length,
    correct,
    total: predictions.length,
    errors: predictions.filter((p) => p.error !== undefined).length,
    perCategory,
    perLanguage,
    confusion,
    macroF1: defined.length === 0 ? 0 : defined.reduce((a, b) => a + b, 0) / defined.length,
    p50MsPerPage: percentile(latencies, 0.5),
    p95MsPerPage: percentile(latencies, 0.95),
  };
}

/** Words of three or more letters, lower-cased, in any script. */
function words(text: string): string[] {
  return text.toLowerCase().match(/\p{L}{3,}/gu) ?? [];
}

/**
 * The naive baseline: each category scores how many distinct words of its name and criteria
 * occur in the document; the highest wins, a tie goes to the category listed first.
 */
export function wordOverlapBaseline(schema: readonly ClassificationCategory[]): Predictor {
  const vocabularies = schema.map((category) => ({
    category: category.category,
    words: new Set(words([category.category.replace(/_/g, ' '), ...category.criteria].join(' '))),
  }));
  return (document) => {
    const present = new Set(words(document.pages.join('\n')));
    let best: string | null = null;
    let bestScore = -1;
    for (const { category, words: vocabulary } of vocabularies) {
      let overlap = 0;
      for (const word of vocabulary) if (present.has(word)) overlap++;
      if (overlap > bestScore) {
        best = category;
        bestScore = overlap;
      }
    }
    return best;
  };
}
