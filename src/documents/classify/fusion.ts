/**
 * The one rule that turns evidence into a category's score, the same for every category
 * and request (docs/decisions/0121-classification-by-general-evidence.md):
 *
 *   strength(criterion) = semantic + LEXICAL_WEIGHT x lexical + LAYOUT_WEIGHT x layout
 *   score(category)     = mean strength of its criteria + LABEL_WEIGHT x strength(its name)
 *
 * semantic: best cosine of the criterion with a passage of the document; lexical: share of
 * its words found (0..1); layout: best cosine of the criterion with a sentence describing
 * the document's form (layout.ts). The weights were measured on
 * the development sets (business categories and categories unlike them) and are not tuned
 * per category. Scores become probabilities by a softmax at TEMPERATURE, fitted on the same
 * sets so that `confidence` is the probability of being right: the value minimizing the
 * negative log-likelihood of the right category over both sets, every schema variant and
 * both models (docs/decisions/0221-category-name-as-a-sentence-page-size-temperature.md).
 */
import type { CategoryEvidence, CriterionEvidence } from './evidence.js';

export const LEXICAL_WEIGHT = 0.4;
export const LAYOUT_WEIGHT = 0.5;
export const LABEL_WEIGHT = 0.45;
export const TEMPERATURE = 0.05;

export function strength(evidence: CriterionEvidence): number {
  return evidence.semantic + LEXICAL_WEIGHT * evidence.lexical + LAYOUT_WEIGHT * evidence.layout;
}

/** A category's score; `weights` (deep second pass) weigh its criteria, default equally. */
export function categoryScore(evidence: CategoryEvidence, weights?: readonly number[]): number {
  const label = LABEL_WEIGHT * strength(evidence.label);
  if (evidence.criteria.length === 0) return strength(evidence.label) + label;
  let total = 0;
  let weightSum = 0;
  evidence.criteria.forEach((criterion, i) => {
    const weight = weights?.[i] ?? 1;
    total += weight * strength(criterion);
    weightSum += weight;
  });
  return (weightSum > 0 ? total / weightSum : 0) + label;
}

/** Softmax of the scores at TEMPERATURE: each category's probability of being the right one. */
export function probabilities(scores: readonly number[], temperature = TEMPERATURE): number[] {
  if (scores.length === 0) return [];
  const best = Math.max(...scores);
  const exps = scores.map((score) => Math.exp((score - best) / temperature));
  const sum = exps.reduce((total, value) => total + value, 0);
  return exps.map((value) => value / sum);
}
