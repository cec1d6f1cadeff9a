import type { CategoryScore } from './classify.types.js';
import { probabilities, winnerConfidence } from './fusion.js';

/**
 * A criterion whose strength (fusion.ts) reaches this is rated `high`: a passage says much
 * the same as the criterion, or most of its words are in the document. Measured on the
 * development sets: about the median strength of the right category's criteria.
 */
export const HIGH_STRENGTH = 0.3;
/** Scores closer than this are a tie (the same evidence, up to rounding). */
export const TIE = 1e-6;

export function isHigh(strength: number): boolean {
  return strength >= HIGH_STRENGTH;
}

function highCount(score: CategoryScore): number {
  return score.criteria.filter(isHigh).length;
}

function strengthSum(score: CategoryScore): number {
  return score.criteria.reduce((sum, value) => sum + value, 0);
}

/** Code-point order, independent of the locale. */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Index of the winning category. Scores within TIE of the best are tied; a tie goes to the
 * category with more criteria rated high, then the larger sum of criterion strengths (both
 * from the document's content), and only when the content cannot tell them apart to the
 * name in code-point order. The order of the schema never decides: a permuted schema gives
 * the same answer.
 */
export function chooseCategory(scores: readonly CategoryScore[], names: readonly string[]): number {
  if (scores.length === 0) return -1;
  const best = Math.max(...scores.map((score) => score.score));
  const tied = scores
    .map((score, index) => ({ score, index }))
    .filter(({ score }) => best - score.score <= TIE);
  tied.sort(
    (a, b) =>
      highCount(b.score) / Math.max(1, b.score.criteria.length) -
        highCount(a.score) / Math.max(1, a.score.criteria.length) ||
      strengthSum(b.score) - strengthSum(a.score) ||
      byName(names[a.index], names[b.index]),
  );
  return tied[0].index;
}

/**
 * Each category's confidence: the calibrated probability that it is the right one, rounded
 * to 4 decimals. The softmax of the scores at the fitted temperature (fusion.ts) ranks and
 * spreads the categories; the winner's share is then recalibrated on its own
 * (winnerConfidence) and the others keep their proportions of the rest. Categories tied
 * for the best score are recalibrated as one (their shares summed, chance as many times
 * 1/n) and get equal shares; a low margin gives the winner little more than its runner-up.
 */
export function categoryConfidences(scores: readonly CategoryScore[]): number[] {
  const values = scores.map((score) => score.score);
  const spread = probabilities(values);
  const best = Math.max(...values);
  const tied = values.filter((value) => best - value <= TIE).length;
  if (values.length < 2 || tied === values.length) {
    return spread.map(() => Math.round(10_000 / values.length) / 10_000);
  }
  const isTied = (index: number) => best - values[index] <= TIE;
  const share = spread.reduce((sum, value, index) => sum + (isTied(index) ? value : 0), 0);
  const winners = winnerConfidence(share, tied / values.length);
  const scale = share < 1 ? (1 - winners) / (1 - share) : 0;
  return spread.map((value, index) => {
    const confidence = isTied(index) ? winners / tied : Math.min(winners / tied, value * scale);
    return Math.round(confidence * 10_000) / 10_000;
  });
}
