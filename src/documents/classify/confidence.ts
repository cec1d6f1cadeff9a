import type { CategoryScore } from './classify.types.js';

/** A criterion matched at least this strongly is rated `high`. */
export const HIGH_CONFIDENCE = 0.5;
/** Scores closer than this share of the best score are a tie. */
export const TIE_SHARE = 0.01;
/** A lead of this share of the best score (or more) is clear: no doubt left in confidence. */
export const CLEAR_LEAD = 0.2;

function highShare(score: CategoryScore): number {
  if (score.criteria.length === 0) return 0;
  return score.criteria.filter((value) => value >= HIGH_CONFIDENCE).length / score.criteria.length;
}

function strengthSum(score: CategoryScore): number {
  return score.criteria.reduce((sum, value) => sum + value, 0);
}

/** Code-point order, independent of the locale. */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Index of the winning category. Scores within TIE_SHARE of the best are tied; a tie goes to
 * the category with more criteria rated high, then the larger sum of criterion strengths
 * (both from the document's content), and only when the content cannot tell them apart to
 * the name in code-point order. The order of the schema never decides: a permuted schema
 * gives the same answer.
 */
export function chooseCategory(scores: readonly CategoryScore[], names: readonly string[]): number {
  if (scores.length === 0) return -1;
  const best = Math.max(...scores.map((score) => score.score));
  const tolerance = TIE_SHARE * Math.max(Math.abs(best), 1e-9);
  const tied = scores
    .map((score, index) => ({ score, index }))
    .filter(({ score }) => best - score.score <= tolerance);
  tied.sort(
    (a, b) =>
      highShare(b.score) - highShare(a.score) ||
      strengthSum(b.score) - strengthSum(a.score) ||
      b.score.score - a.score.score ||
      byName(names[a.index], names[b.index]),
  );
  return tied[0].index;
}

/**
 * How far `score` is from doubt, 0..1: for the winner, its lead over the runner-up; for any
 * other category, how close it comes to the winner. 1 = clear lead, 0.5 = tie, 0 = far
 * behind. Relative to the best score, so it means the same for both models.
 */
function standing(scores: readonly CategoryScore[], index: number, winner: number): number {
  const best = scores[winner].score;
  if (best <= 0) return 0;
  if (index === winner) {
    const runnerUp = Math.max(...scores.filter((_, i) => i !== winner).map((s) => s.score), 0);
    return 0.5 + 0.5 * Math.min(1, (best - runnerUp) / (best * CLEAR_LEAD));
  }
  return 0.5 * Math.max(0, 1 - (best - scores[index].score) / (best * CLEAR_LEAD));
}

/**
 * A category's confidence, 0..1: the share of its criteria rated high, scaled by its
 * standing. Weak evidence (no criterion high) gives 0; a tie halves the winner's share; a
 * category far behind the winner gets 0 even if some of its criteria match. Rounded to 4
 * decimals.
 */
export function categoryConfidence(
  scores: readonly CategoryScore[],
  index: number,
  winner: number,
): number {
  const value = highShare(scores[index]) * standing(scores, index, winner);
  return Math.round(value * 10_000) / 10_000;
}
