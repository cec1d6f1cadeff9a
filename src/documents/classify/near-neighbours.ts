import { cosine, sentenceEncoder } from '../encoder/sentence-encoder.js';
import type { ClassificationCategory, CategoryScore } from './classify.types.js';
import type { CategoryEvidence } from './evidence.js';
import { categoryScore } from './fusion.js';

/** Categories scoring within this of the best are near neighbours of it. */
const NEAR = 0.04;
/** Weight of the second reading's difference from the neighbours' mean (record 0391). */
const SECOND_PASS_WEIGHT = 0.25;

/**
 * Deep Classify's second pass over the near neighbours of the best category. Neighbours
 * share much of their evidence (two kinds of financial documents both have amounts and
 * dates), so each is read again with its criteria weighted by how distinct each is from
 * every other neighbour's criteria (1 - the highest cosine between them): what only one of
 * them asks for decides. Categories further behind are left as they are.
 */
export function separateNeighbours(
  schema: readonly ClassificationCategory[],
  evidence: readonly CategoryEvidence[],
  scores: CategoryScore[],
): CategoryScore[] {
  const encoder = sentenceEncoder();
  const best = Math.max(...scores.map((score) => score.score));
  const near = scores.flatMap((score, index) => (best - score.score <= NEAR ? [index] : []));
  if (!encoder || near.length < 2) return scores;
  const vectors = new Map(near.map((index) => [index, encoder.embed(schema[index].criteria)]));
  const second = new Map(
    near.map((index) => {
      const others = near.filter((other) => other !== index).flatMap((o) => vectors.get(o) ?? []);
      const weights = (vectors.get(index) ?? []).map((vector) =>
        Math.max(0, 1 - Math.max(0, ...others.map((other) => cosine(vector, other)))),
      );
      return [index, categoryScore(evidence[index], weights)];
    }),
  );
  const mean = [...second.values()].reduce((sum, value) => sum + value, 0) / second.size;
  return scores.map((score, index) =>
    second.has(index)
      ? { ...score, score: score.score + SECOND_PASS_WEIGHT * ((second.get(index) ?? mean) - mean) }
      : score,
  );
}
