/**
 * Trials of other second passes for Deep Classify over the near neighbours of the best
 * category, replayed on deep-dump.ts's output (record 0464): documents right per set and
 * schema variant for the default model, the shipped Deep Classify, its first reading alone,
 * and each trial, with how many cells each trial is ahead of default in and its worst cell.
 * The scores are the service's (dumped); each trial adds its own term to the near
 * neighbours' scores, centred on their mean, so categories further behind keep theirs.
 * Ties are broken by schema order here (the service breaks them by content), so a cell can
 * differ from the bench's by a document.
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/deep-trial.js <dump.json>
 */
import { LABEL_WEIGHT } from '../../src/documents/classify/fusion.js';
import { type DumpRow as Row, readDumpArgument } from './deep-dump.types.js';
import { argmax, cellsOf, mean, NEAR, nearOf, shortCell, WEIGHTS } from './deep-replay.js';

const { inventory, schemas, rows } = readDumpArgument('deep-trial.js <deep-dump.json>');

const strength = (e: readonly number[], layout = WEIGHTS[2]) =>
  e[0] * WEIGHTS[0] + e[1] * WEIGHTS[1] + e[2] * layout + e[3] * WEIGHTS[3];
/** The fusion rule's score of a category from its [name, ...criteria] values. */
const fused = (perStatement: readonly number[]) =>
  mean(perStatement.slice(1)) + LABEL_WEIGHT * perStatement[0];

/** Adds `weight` x (term - the near neighbours' mean term) to each near neighbour. */
function centredPass(
  scores: readonly number[],
  term: (category: number, near: readonly number[]) => number,
  weight: number,
  near = NEAR,
): number[] {
  const nearIndices = nearOf(scores, near);
  if (nearIndices.length < 2) return [...scores];
  const terms = new Map(nearIndices.map((c) => [c, term(c, nearIndices)]));
  const centre = mean([...terms.values()]);
  return scores.map((score, i) => score + weight * ((terms.get(i) ?? centre) - centre));
}

/** The shipped pass (near-neighbours.ts): votes, then criteria weighted by distinctness. */
function shippedReplay(row: Row, voteWeight = 0.2, pageWeight = 0.1, distinctWeight = 0.25) {
  const nearVotes = new Set(nearOf(row.firstScores));
  const voted = row.firstScores.map((score, i) =>
    nearVotes.has(i) ? score + voteWeight * row.votes[i] + pageWeight * row.pageVotes[i] : score,
  );
  const statements = schemas[`${row.set}/${row.variant}`].statementCosines;
  const starts: number[] = [];
  row.evidence.reduce((at, category) => (starts.push(at), at + category.length), 0);
  const criteria = (c: number) => row.evidence[c].slice(1).map((_, i) => starts[c] + 1 + i);
  return centredPass(
    voted,
    (c, near) => {
      const others = near.filter((o) => o !== c).flatMap(criteria);
      const weights = criteria(c).map((a) =>
        Math.max(0, 1 - Math.max(0, ...others.map((b) => statements[a][b]))),
      );
      const total = weights.reduce((sum, w) => sum + w, 0);
      const criteriaScore = row.evidence[c]
        .slice(1)
        .reduce((sum, e, i) => sum + weights[i] * strength(e), 0);
      return (total > 0 ? criteriaScore / total : 0) + LABEL_WEIGHT * strength(row.evidence[c][0]);
    },
    distinctWeight,
  );
}

/** Each passage's centring offset (evidence.ts: half its mean cosine over the request). */
function offsets(row: Row): number[] {
  const all = row.cos.flat();
  const sums = new Array<number>(all[0]?.length ?? 0).fill(0);
  for (const line of all) line.forEach((value, k) => (sums[k] += value / all.length));
  return sums.map((value) => 0.5 * value);
}

/** A passage's similarity to A's statement minus its best similarity to B's statements. */
function contrastive(row: Row, a: number, b: number): number {
  const passages = row.cos[a][0].length;
  const against = Array.from({ length: passages }, (_, k) =>
    Math.max(...row.cos[b].map((line) => line[k])),
  );
  return fused(row.cos[a].map((line) => Math.max(...line.map((v, k) => v - against[k]))));
}

/** Each near neighbour's share of the votes of every passage, among the near ones only. */
function nearVotes(row: Row, c: number, near: readonly number[], temperature: number): number {
  const passages = row.cos[0][0].length;
  let share = 0;
  for (let k = 0; k < passages; k++) {
    const nearness = near.map((n) => fused(row.cos[n].map((line) => line[k])));
    const best = Math.max(...nearness);
    const exps = nearness.map((value) => Math.exp((value - best) / temperature));
    share += exps[near.indexOf(c)] / exps.reduce((sum, v) => sum + v, 0) / passages;
  }
  return share;
}

/** Each statement's mean of its `k` best centred cosines: how much of the document agrees. */
function coverage(row: Row, c: number, k: number): number {
  const offset = offsets(row);
  return fused(
    row.cos[c].map((line) =>
      mean(
        line
          .map((v, j) => v - offset[j])
          .sort((x, y) => y - x)
          .slice(0, k),
      ),
    ),
  );
}

/** Semantic evidence read again with each passage centred on the near neighbours alone. */
function nearCentred(row: Row, c: number, near: readonly number[], share: number): number {
  const offset = offsets(row);
  const lines = near.flatMap((n) => row.cos[n]);
  const nearMean = offset.map((_, k) => mean(lines.map((line) => line[k])));
  return fused(
    row.evidence[c].map((e, s) => {
      const semantic = Math.max(
        ...row.cos[c][s].map((v, k) => v - offset[k] - share * nearMean[k]),
      );
      return strength([semantic, e[1], e[2], e[3], e[4]]);
    }),
  );
}

/**
 * Form evidence selected by what the criteria say: each statement's cosine with every
 * sentence layout.ts can say of a document, centred on its mean over them; the traits the
 * document has count for it, those it lacks against it at `lacking`.
 */
function formFit(row: Row, c: number, lacking: number): number {
  const pageSentence = (s: string) =>
    s.startsWith('A single')
      ? 'A single page.'
      : s.startsWith('A short')
        ? 'A short document of 2 pages.'
        : s.startsWith('A long')
          ? 'A long document of 40 pages.'
          : s.startsWith('A document of')
            ? 'A document of 10 pages.'
            : s;
  const has = new Set(row.form.map(pageSentence));
  const present = inventory.map((s) => (has.has(s) ? 1 : -lacking));
  const cosines = schemas[`${row.set}/${row.variant}`].inventoryCosines[c];
  return fused(
    cosines.map((line) => {
      const centre = mean(line);
      return line.reduce((sum, v, f) => sum + Math.max(0, v - centre) * present[f], 0);
    }),
  );
}

/** The layout evidence weighed `factor` times more among the near neighbours. */
const moreForm = (row: Row, c: number, factor: number) =>
  fused(row.evidence[c].map((e) => strength(e, WEIGHTS[2] * factor)));

type Trial = (row: Row) => number[];
const trials: [string, Trial][] = [
  ['default', (row) => row.defaultScores],
  ['Deep Classify (shipped)', (row) => row.shippedScores],
  ['Deep Classify replayed', (row) => shippedReplay(row)],
  ['first reading alone', (row) => row.firstScores],
  ['votes alone', (row) => shippedReplay(row, 0.2, 0.1, 0)],
  ['distinct criteria alone', (row) => shippedReplay(row, 0, 0, 0.25)],
];
for (const weight of [0.1, 0.25, 0.5]) {
  trials.push([
    `contrastive passages w${weight}`,
    (row) =>
      centredPass(
        shippedReplay(row),
        (c, near) => mean(near.filter((b) => b !== c).map((b) => contrastive(row, c, b))),
        weight,
      ),
  ]);
  trials.push([
    `near-only votes T0.01 w${weight}`,
    (row) => centredPass(shippedReplay(row), (c, near) => nearVotes(row, c, near, 0.01), weight),
  ]);
  trials.push([
    `near-centred semantic w${weight}`,
    (row) => centredPass(shippedReplay(row), (c, near) => nearCentred(row, c, near, 1), weight),
  ]);
  for (const k of [3, 10]) {
    trials.push([
      `coverage top-${k} w${weight}`,
      (row) => centredPass(shippedReplay(row), (c) => coverage(row, c, k), weight),
    ]);
  }
  for (const lacking of [0, 0.5]) {
    trials.push([
      `form fit, lacking ${lacking}, w${weight}`,
      (row) => centredPass(shippedReplay(row), (c) => formFit(row, c, lacking), weight),
    ]);
  }
}
for (const factor of [1.5, 2, 3]) {
  trials.push([
    `layout x${factor} among near`,
    (row) => centredPass(shippedReplay(row), (c) => moreForm(row, c, factor), 1),
  ]);
}

const cells = cellsOf(rows);
const right = (trial: Trial) => {
  const counts = new Map(cells.map((cell) => [cell, 0]));
  for (const row of rows) {
    const cell = `${row.set}/${row.variant}`;
    if (argmax(trial(row)) === row.expected) counts.set(cell, (counts.get(cell) ?? 0) + 1);
  }
  return cells.map((cell) => counts.get(cell) ?? 0);
};
const base = right(trials[0][1]);
console.log(
  'trial'.padEnd(36) +
    cells.map((cell) => shortCell(cell).padStart(12)).join('') +
    '  total  ahead  worst',
);
for (const [name, trial] of trials) {
  const counts = right(trial);
  const gains = counts.map((count, i) => count - base[i]);
  console.log(
    name.padEnd(36) +
      counts.map((count) => String(count).padStart(12)).join('') +
      String(counts.reduce((a, b) => a + b, 0)).padStart(7) +
      String(gains.filter((gain) => gain > 0).length).padStart(7) +
      String(Math.min(...gains)).padStart(7),
  );
}
