import { cosine, sentenceEncoder } from '../encoder/sentence-encoder.js';
import type { ClassificationCategory, CategoryScore } from './classify.types.js';
import type { CategoryEvidence } from './evidence.js';
import { categoryScore, FUSION, type FusionWeights } from './fusion.js';

/** Categories scoring within this of the best are near neighbours of it. */
export const NEAR = 0.04;
/** Weight of the second reading's difference from the neighbours' mean (record 0391). */
export const SECOND_PASS_WEIGHT = 0.25;
/**
 * Weight of a near neighbour's share of the votes of the passages only Deep Classify reads
 * (evidence.ts, records 0394, 0428).
 */
export const VOTE_WEIGHT = 0.2;
/**
 * Weight of its share of the votes of the document's pages read whole (evidence.ts
 * wholePages; record 0434).
 */
export const PAGE_VOTE_WEIGHT = 0.1;

function nearBest(scores: readonly CategoryScore[]): number[] {
  const best = Math.max(...scores.map((score) => score.score));
  return scores.flatMap((score, index) => (best - score.score <= NEAR ? [index] : []));
}

/**
 * Each near neighbour of the best category gains its share of the document's passage votes
 * (which category each passage reads as, among the request's) and of its whole pages'
 * votes: where the best passages leave categories close, what most of the document reads
 * as tells them apart.
 */
function countVotes(
  evidence: readonly CategoryEvidence[],
  scores: readonly CategoryScore[],
): CategoryScore[] {
  const near = new Set(nearBest(scores));
  return scores.map((score, index) =>
    near.has(index)
      ? {
          ...score,
          score:
            score.score +
            VOTE_WEIGHT * (evidence[index].votes ?? 0) +
            PAGE_VOTE_WEIGHT * (evidence[index].pageVotes ?? 0),
        }
      : score,
  );
}

/**
 * Deep Classify's second pass over the near neighbours of the best category: their passage
 * votes (countVotes), then their criteria read again. Neighbours
 * share much of their evidence (two kinds of financial documents both have amounts and
 * dates), so each is read again with its criteria weighted by how distinct each is from
 * every other neighbour's criteria (1 - the highest cosine between them): what only one of
 * them asks for decides. Categories further behind are left as they are.
 */
export function separateNeighbours(
  schema: readonly ClassificationCategory[],
  evidence: readonly CategoryEvidence[],
  firstScores: CategoryScore[],
  fusion: FusionWeights = FUSION,
): CategoryScore[] {
  const encoder = sentenceEncoder();
  const scores = countVotes(evidence, firstScores);
  const near = nearBest(scores);
  if (!encoder || near.length < 2) return scores;
  const vectors = new Map(near.map((index) => [index, encoder.embed(schema[index].criteria)]));
  const second = new Map(
    near.map((index) => {
      const others = near.filter((other) => other !== index).flatMap((o) => vectors.get(o) ?? []);
      const weights = (vectors.get(index) ?? []).map((vector) =>
        Math.max(0, 1 - Math.max(0, ...others.map((other) => cosine(vector, other)))),
      );
      return [index, categoryScore(evidence[index], weights, fusion)];
    }),
  );
  const mean = [...second.values()].reduce((sum, value) => sum + value, 0) / second.size;
  return scores.map((score, index) =>
    second.has(index)
      ? { ...score, score: score.score + SECOND_PASS_WEIGHT * ((second.get(index) ?? mean) - mean) }
      : score,
  );
}
