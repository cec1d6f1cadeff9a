/**
 * The one rule that turns evidence into a category's score, the same for every category
 * and request (docs/decisions/0121-classification-by-general-evidence.md):
 *
 *   strength(criterion) = semantic + LEXICAL_WEIGHT x lexical + LAYOUT_WEIGHT x layout
 *                         + OPENING_WEIGHT x opening
 *   score(category)     = mean strength of its criteria + LABEL_WEIGHT x strength(its name)
 *
 * semantic: best cosine of the criterion with a passage of the document, each passage's
 * cosines centred on its mean over the request's statements (record 0393); lexical: share of
 * its words found (0..1), none across languages, in proportion to how much of the document's
 * text is the request's words below 5 % (record 0444); layout: best cosine of the criterion with
 * a sentence describing the document's form (layout.ts) or how its text addresses the reader
 * (register.ts, record 0544); opening: cosine of the criterion
 * with the document's opening passage (record 0390). Deep Classify reads its near
 * neighbours again (near-neighbours.ts). The weights were measured on
 * the development sets (business categories and categories unlike them) and are not tuned
 * per category. Scores become probabilities by CALIBRATION, fitted on the same sets so that
 * `confidence` is the probability of being right.
 */
import type { CategoryEvidence, CriterionEvidence } from './evidence.js';

export const LEXICAL_WEIGHT = 0.4;
export const LAYOUT_WEIGHT = 0.5;
export const LABEL_WEIGHT = 0.45;
export const OPENING_WEIGHT = 0.3;

/** Weights of each kind of evidence in a statement's strength. */
export interface EvidenceWeights {
  semantic: number;
  lexical: number;
  layout: number;
  opening: number;
}

/** The fusion rule's weights: of a criterion's evidence, and of the category name's. */
export interface FusionWeights {
  criterion: EvidenceWeights;
  label: EvidenceWeights;
}

const CRITERION_WEIGHTS: EvidenceWeights = {
  semantic: 1,
  lexical: LEXICAL_WEIGHT,
  layout: LAYOUT_WEIGHT,
  opening: OPENING_WEIGHT,
};

/** The rule above: the name's evidence weighs as a criterion's, LABEL_WEIGHT times. */
export const FUSION: FusionWeights = {
  criterion: CRITERION_WEIGHTS,
  label: {
    semantic: LABEL_WEIGHT,
    lexical: LABEL_WEIGHT * LEXICAL_WEIGHT,
    layout: LABEL_WEIGHT * LAYOUT_WEIGHT,
    opening: LABEL_WEIGHT * OPENING_WEIGHT,
  },
};

/**
 * How scores become probabilities: a softmax at `temperature`, mixed with the uniform
 * distribution at `uniformShare`. The softmax ranks and spreads the categories by their
 * scores; the uniform share is the chance that the evidence is misleading however clear it
 * looks (a wording of the schema that fits another category better), so no category gets a
 * confidence near 1 that is right less often than that. Both were fitted on the development
 * sets pooled (both sets, every schema variant, both models) by the procedure of
 * bench/classify-eval/calibration-fit.ts, checked on held-out folds (record 0333); refitted
 * on the evidence of record 0390 (record 0392), after records 0393-0394 (record 0415), then
 * after Deep Classify's votes of what it reads beyond the default (record 0429).
 */
export interface Calibration {
  temperature: number;
  uniformShare: number;
}
export const CALIBRATION: Calibration = { temperature: 0.035, uniformShare: 0.05 };

/**
 * The winner's confidence, recalibrated on its own (record 0445): one softmax for every
 * request leaves the winner's probability too low where the evidence is weak (a winner at
 * 0.35 was right about half the time) and too high where it is clear (0.95 right 0.92 of
 * the time). A logistic map of the winner's log-odds, with the log-odds of chance (1 / the
 * number of categories) as a second input so that a near tie of two categories stays near
 * one half and one of twenty near its own chance:
 *
 *   logit(confidence) = offset + slope x logit(winner's probability) + chance x logit(1/n)
 *
 * Fitted on the development sets pooled (both sets, every schema variant, both models) by
 * the logistic log-likelihood of the winner being right, 5 folds by document held out
 * (bench/classify-eval/calibration-fit.ts).
 */
export interface WinnerRecalibration {
  offset: number;
  slope: number;
  chance: number;
}
export const WINNER_RECALIBRATION: WinnerRecalibration = { offset: 0.1, slope: 0.69, chance: -0.2 };

const logit = (p: number) => {
  const clamped = Math.min(1 - 1e-9, Math.max(1e-9, p));
  return Math.log(clamped / (1 - clamped));
};

/** The recalibrated confidence of a winner of `probability` where chance is `chance`. */
export function winnerConfidence(
  probability: number,
  chance: number,
  fit: WinnerRecalibration = WINNER_RECALIBRATION,
): number {
  const z = fit.offset + fit.slope * logit(probability) + fit.chance * logit(chance);
  return 1 / (1 + Math.exp(-z));
}

export function strength(
  evidence: CriterionEvidence,
  weights: EvidenceWeights = FUSION.criterion,
): number {
  return (
    weights.semantic * evidence.semantic +
    weights.lexical * evidence.lexical +
    weights.layout * evidence.layout +
    weights.opening * (evidence.opening ?? 0)
  );
}

/**
 * A category's score; `weights` (deep second pass) weigh its criteria, default equally;
 * `fusion` the kinds of evidence.
 */
export function categoryScore(
  evidence: CategoryEvidence,
  weights?: readonly number[],
  fusion: FusionWeights = FUSION,
): number {
  const label = strength(evidence.label, fusion.label);
  if (evidence.criteria.length === 0) return strength(evidence.label, fusion.criterion) + label;
  let total = 0;
  let weightSum = 0;
  evidence.criteria.forEach((criterion, i) => {
    const weight = weights?.[i] ?? 1;
    total += weight * strength(criterion, fusion.criterion);
    weightSum += weight;
  });
  return (weightSum > 0 ? total / weightSum : 0) + label;
}

/**
 * Each category's probability of being the right one (see CALIBRATION); ranks as the
 * scores. A number is a temperature alone, with no uniform share (split's page evidence).
 */
export function probabilities(
  scores: readonly number[],
  fit: Calibration | number = CALIBRATION,
): number[] {
  if (scores.length === 0) return [];
  const calibration = typeof fit === 'number' ? { temperature: fit, uniformShare: 0 } : fit;
  const best = Math.max(...scores);
  const exps = scores.map((score) => Math.exp((score - best) / calibration.temperature));
  const sum = exps.reduce((total, value) => total + value, 0);
  const uniform = calibration.uniformShare / scores.length;
  return exps.map((value) => (1 - calibration.uniformShare) * (value / sum) + uniform);
}
