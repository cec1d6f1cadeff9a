/**
 * Cross-validation over documents shared by the replay trials: a document's rows (every
 * set and schema variant of it) fall in one fold, each fold is scored with the rule that
 * gets most rows right on the others, and the held-out rows are counted per cell.
 */
import type { DumpRow } from './deep-dump.types.js';
import { argmax, cellsOf } from './deep-replay.js';

/** Whether a row is right, for the default model and for Deep Classify (1 or 0 each). */
export type RowRights = [number, number];

const FOLDS = 5;

/** A stable fold per document id. */
export function foldOf(id: string, folds = FOLDS): number {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % folds;
}

/** Rows right per cell (cellsOf order), both models; `only` keeps some rows. */
export function countCells(
  rows: readonly DumpRow[],
  results: readonly RowRights[],
  only?: (i: number) => boolean,
): RowRights[] {
  const cells = cellsOf(rows);
  const counts = new Map(cells.map((cell) => [cell, [0, 0] as RowRights]));
  rows.forEach((row, i) => {
    if (only && !only(i)) return;
    const count = counts.get(`${row.set}/${row.variant}`) ?? [0, 0];
    count[0] += results[i][0];
    count[1] += results[i][1];
  });
  return cells.map((cell) => counts.get(cell) ?? [0, 0]);
}

/**
 * Per row, the result of the rule (an index into `results`) chosen on the other folds: most
 * rows right there, both models, among the rules `allowed` for that fold (every one unless
 * told), ties to the first. `onChoice` hears each fold's choice.
 */
export function heldOutRights(
  rows: readonly DumpRow[],
  results: readonly (readonly RowRights[])[],
  options: {
    allowed?: (rule: number, training: (i: number) => boolean) => boolean;
    onChoice?: (fold: number, rule: number) => void;
  } = {},
): RowRights[] {
  const folds = rows.map((row) => foldOf(`${row.set}/${row.id}`));
  const held: RowRights[] = rows.map(() => [0, 0]);
  for (let fold = 0; fold < FOLDS; fold++) {
    const training = (i: number) => folds[i] !== fold;
    const totals = results.map((result, r) =>
      options.allowed && !options.allowed(r, training)
        ? -1
        : result.reduce((sum, [a, b], i) => (training(i) ? sum + a + b : sum), 0),
    );
    const chosen = argmax(totals);
    options.onChoice?.(fold, chosen);
    rows.forEach((_, i) => {
      if (folds[i] === fold) held[i] = results[chosen][i];
    });
  }
  return held;
}
