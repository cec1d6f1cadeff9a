import type { CategoryScore } from './classify.types.js';
import { matchStrength, type Evidence } from './evidence.js';
import type { CompiledCategory, CompiledSchema, EvidenceKey } from './schema.compiler.js';

/** Categories scoring within this share of the best are near neighbours of it. */
const NEAR_SHARE = 0.15;
/** Weight of the distinguishing evidence added to each neighbour's score. */
const DISTINCT_WEIGHT = 0.3;

function keysOf(category: CompiledCategory): EvidenceKey[] {
  return [...category.label, ...category.criteria.flatMap((criterion) => criterion.keys)];
}

/**
 * Deep Classify's second pass. Near neighbours (an invoice, a receipt and a statement all
 * have amounts, dates and "payment") share much of their evidence, so their first-pass
 * scores are close whatever the document is. Among the categories close to the best, each
 * is scored again on the evidence only it looks for (its keys that no other neighbour has:
 * "change", "cashier" for a receipt; "opening balance" for a statement) and that score is
 * added. Categories further behind are left as they are.
 */
export function separateNeighbours(
  schema: CompiledSchema,
  scores: CategoryScore[],
  document: Evidence,
  length: number,
): CategoryScore[] {
  const best = Math.max(...scores.map((score) => score.score));
  if (!(best > 0)) return scores;
  const near = scores
    .map((score, index) => ({ score, index }))
    .filter(({ score }) => best - score.score <= NEAR_SHARE * best)
    .map(({ index }) => index);
  if (near.length < 2) return scores;
  const keySets = near.map((index) => new Set(keysOf(schema.categories[index]).map((k) => k.key)));
  return scores.map((score, index) => {
    const at = near.indexOf(index);
    if (at < 0) return score;
    const distinct = keysOf(schema.categories[index]).filter((key) =>
      keySets.every((keys, other) => other === at || !keys.has(key.key)),
    );
    return {
      ...score,
      score: score.score + DISTINCT_WEIGHT * matchStrength(distinct, document, length),
    };
  });
}
