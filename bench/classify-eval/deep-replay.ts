/**
 * What the replays of deep-dump.ts's output share (deep-trial, hubness-trial,
 * aggregation-trial): the service's fusion weights and near-neighbour margin, read from the
 * service so a replay never scores with stale constants, and the counting and printing of
 * documents right per cell.
 */
import { FUSION, LABEL_WEIGHT } from '../../src/documents/classify/fusion.js';
import {
  NEAR,
  PAGE_VOTE_WEIGHT,
  SECOND_PASS_WEIGHT,
  VOTE_WEIGHT,
} from '../../src/documents/classify/near-neighbours.js';
import type { DumpRow, DumpSchema } from './deep-dump.types.js';

export { NEAR };

/** A criterion's weights per kind of evidence, in the dump's order. */
export const WEIGHTS = [
  FUSION.criterion.semantic,
  FUSION.criterion.lexical,
  FUSION.criterion.layout,
  FUSION.criterion.opening,
];

export const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

/** The first index of the highest value (ties by schema order). */
export const argmax = (values: readonly number[]) =>
  values.reduce((best, value, i) => (value > values[best] ? i : best), 0);

/** The categories within `near` of the best score: Deep Classify's near neighbours. */
export function nearOf(scores: readonly number[], near = NEAR): number[] {
  const best = Math.max(...scores);
  return scores.flatMap((score, i) => (best - score <= near ? [i] : []));
}

/** Per category: the indices of its statements ([name, ...criteria]) in the schema's order. */
export function statementIndices(row: DumpRow): number[][] {
  let at = 0;
  return row.evidence.map((category) => category.map(() => at++));
}

/**
 * A category's second-pass score from its statement strengths (its label first): its
 * criteria averaged with secondPass's `weights`, plus the label's share.
 */
export function weightedStrength(strengths: readonly number[], weights: readonly number[]): number {
  const total = weights.reduce((sum, w) => sum + w, 0);
  const criteria = strengths.slice(1).reduce((sum, v, i) => sum + weights[i] * v, 0);
  return (total > 0 ? criteria / total : 0) + LABEL_WEIGHT * strengths[0];
}

/**
 * Deep Classify's second pass (near-neighbours.ts) replayed on `scores`: the near neighbours
 * gain their passage and page votes, then `termOf(c, weights)` reads each again with its
 * criteria weighted by how distinct they are from the other neighbours'.
 */
export function secondPass(
  row: DumpRow,
  schema: DumpSchema,
  scores: readonly number[],
  termOf: (category: number, weights: number[]) => number,
): number[] {
  const first = new Set(nearOf(scores));
  const voted = scores.map((score, i) =>
    first.has(i) ? score + VOTE_WEIGHT * row.votes[i] + PAGE_VOTE_WEIGHT * row.pageVotes[i] : score,
  );
  const near = nearOf(voted);
  if (near.length < 2) return voted;
  const cosines = schema.statementCosines;
  const indices = statementIndices(row);
  const terms = new Map(
    near.map((c) => {
      const others = near.filter((o) => o !== c).flatMap((o) => indices[o].slice(1));
      const weights = indices[c]
        .slice(1)
        .map((a) => Math.max(0, 1 - Math.max(0, ...others.map((b) => cosines[a][b]))));
      return [c, termOf(c, weights)];
    }),
  );
  const centre = mean([...terms.values()]);
  return voted.map((score, i) => score + SECOND_PASS_WEIGHT * ((terms.get(i) ?? centre) - centre));
}

/** Each set and schema variant of the dump, in order of first appearance. */
export const cellsOf = (rows: readonly DumpRow[]) => [
  ...new Set(rows.map((row) => `${row.set}/${row.variant}`)),
];

/** A cell's name shortened for a table column. */
export const shortCell = (cell: string) => cell.replace('business', 'B').replace('unseen', 'U');

/**
 * Documents right per cell for the default model and Deep Classify, for every trial, with
 * their totals and the worst change of either model in a cell against the first trial.
 */
export function printTrialTable(
  cells: readonly string[],
  trials: readonly (readonly [string, [number, number][]])[],
  header = '',
): void {
  const base = trials[0][1];
  const width = Math.max(...trials.map(([name]) => name.length)) + 2;
  console.log(
    header +
      'rule'.padEnd(width) +
      cells.map((cell) => shortCell(cell).padStart(12)).join('') +
      '      total  worst',
  );
  for (const [name, counts] of trials) {
    const worst = Math.min(...counts.flatMap((c, i) => [c[0] - base[i][0], c[1] - base[i][1]]));
    const totals = counts.reduce((t, c) => [t[0] + c[0], t[1] + c[1]], [0, 0]);
    console.log(
      name.padEnd(width) +
        counts.map((c) => `${c[0]} / ${c[1]}`.padStart(12)).join('') +
        `${totals[0]} / ${totals[1]}`.padStart(11) +
        String(worst).padStart(7),
    );
  }
}
