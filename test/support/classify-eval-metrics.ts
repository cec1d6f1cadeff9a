/**
 * Scores a classifier on an evaluation set: accuracy overall, per category and per language,
 * confusion matrix, macro-F1, latency per page and the calibration of its confidence; and the
 * naive word-overlap baseline that every model is compared with on the same documents.
 */
import type { ClassificationCategory } from '../../src/documents/classify/classify.types.js';
import type { EvalDocument } from './classify-eval.js';

/**
 * Predicts a category for one document, with the classifier's confidence in it (0..1) when it
 * gives one; throwing counts as an error, not a miss.
 */
export type Predictor = (
  document: EvalDocument,
) => string | null | { category: string | null; confidence?: number };

export interface Prediction {
  document: EvalDocument;
  got: string | null;
  /** The confidence the classifier gave for `got`, when it gives one. */
  confidence?: number;
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
    let confidence: number | undefined;
    let error: string | undefined;
    try {
      const predicted = predict(document);
      if (predicted !== null && typeof predicted === 'object') {
        got = predicted.category;
        confidence = predicted.confidence;
      } else got = predicted;
    } catch (thrown) {
      error = thrown instanceof Error ? thrown.message : String(thrown);
    }
    const msPerPage = (performance.now() - start) / Math.max(1, document.pages.length);
    return { document, got, confidence, error, msPerPage };
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

export interface ReliabilityBin {
  /** The bin holds confidences in [from, to) (the last one includes 1). */
  from: number;
  to: number;
  count: number;
  meanConfidence: number;
  accuracy: number;
}

export interface Calibration {
  /** Expected calibration error: the count-weighted mean of |accuracy - confidence| per bin. */
  ece: number;
  /** Predictions that carried a confidence (the others are left out). */
  scored: number;
  bins: ReliabilityBin[];
}

/**
 * How well `confidence` reads as the probability of being right: predictions are put in
 * `binCount` equal-width bins of confidence; each bin's accuracy is compared with its mean
 * confidence. A prediction that threw counts as wrong with its confidence, if any.
 */
export function calibration(predictions: readonly Prediction[], binCount = 10): Calibration {
  const bins = Array.from({ length: binCount }, (_, i) => ({
    from: i / binCount,
    to: (i + 1) / binCount,
    count: 0,
    confidenceSum: 0,
    correct: 0,
  }));
  let scored = 0;
  for (const { document, got, confidence } of predictions) {
    if (confidence === undefined || !Number.isFinite(confidence)) continue;
    const clamped = Math.min(1, Math.max(0, confidence));
    const bin = bins[Math.min(binCount - 1, Math.floor(clamped * binCount))];
    bin.count++;
    bin.confidenceSum += clamped;
    if (got === document.category) bin.correct++;
    scored++;
  }
  const reliability = bins.map(({ from, to, count, confidenceSum, correct }) => ({
    from,
    to,
    count,
    meanConfidence: count === 0 ? 0 : confidenceSum / count,
    accuracy: count === 0 ? 0 : correct / count,
  }));
  const ece =
    scored === 0
      ? 0
      : reliability.reduce(
          (sum, bin) => sum + (bin.count / scored) * Math.abs(bin.accuracy - bin.meanConfidence),
          0,
        );
  return { ece, scored, bins: reliability };
}
