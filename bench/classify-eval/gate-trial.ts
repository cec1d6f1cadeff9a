/**
 * Trials of Deep Classify deciding again only where the default model is unsure (record
 * 0507), replayed on deep-dump.ts's output: each rule keeps the default model's scores where
 * the default reading is sure of its answer and takes Deep Classify's (the shipped second
 * pass) where it is not. "Unsure" is read from the default scores alone: the margin of the
 * best over the second, or the calibrated confidence of the winner. Each threshold is chosen
 * by cross-validation over documents (folds by document, every set and schema variant of a
 * document in one fold; the threshold with the most documents right on the other folds,
 * the most cautious among equals) and scored on the held-out fold; the table also shows
 * every threshold on all documents, and rules by whether the two readings and the second
 * pass agree. Then the documents where the two models' answers differ per cell, which way,
 * with the default margin and confidence. Ties by schema order.
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/gate-trial.js <dump.json>
 */
import { categoryConfidences } from '../../src/documents/classify/confidence.js';
import { type DumpRow as Row, readDumpArgument } from './deep-dump.types.js';
import { argmax, cellsOf, printTrialTable, shortCell } from './deep-replay.js';
import { foldOf } from './trial-folds.js';

const { rows } = readDumpArgument('gate-trial.js <deep-dump.json>');
const cells = cellsOf(rows);

/** The best score's lead over the second. */
function margin(scores: readonly number[]): number {
  const sorted = [...scores].sort((a, b) => b - a);
  return sorted.length < 2 ? Infinity : sorted[0] - sorted[1];
}
const confidence = (scores: readonly number[]) =>
  Math.max(...categoryConfidences(scores.map((score) => ({ score, criteria: [] }))));

type Rule = (row: Row, threshold: number) => number[];
interface Family {
  name: string;
  thresholds: number[];
  rule: Rule;
}
const families: Family[] = [
  {
    name: 'default margin under',
    thresholds: [0, 0.005, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.1, 0.15, Infinity],
    rule: (row, t) => (margin(row.defaultScores) < t ? row.shippedScores : row.defaultScores),
  },
  {
    name: 'default confidence under',
    thresholds: [0, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.01],
    rule: (row, t) => (confidence(row.defaultScores) < t ? row.shippedScores : row.defaultScores),
  },
  {
    name: 'Deep Classify among default near',
    thresholds: [0, 0.005, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.1, 0.15, Infinity],
    rule: (row, t) => {
      const best = Math.max(...row.defaultScores);
      return row.shippedScores.map((score, i) =>
        best - row.defaultScores[i] <= t ? score : -Infinity,
      );
    },
  },
  {
    name: 'both margins: accurate lead over default lead x',
    thresholds: [0, 0.25, 0.5, 1, 2, 4, Infinity],
    rule: (row, k) => {
      const d = argmax(row.defaultScores);
      const a = argmax(row.shippedScores);
      if (a === d) return row.shippedScores;
      return margin(row.shippedScores) * k > margin(row.defaultScores)
        ? row.shippedScores
        : row.defaultScores;
    },
  },
];

/** Rules without a threshold: where the two readings (default's, Deep Classify's wider one
 * before its second pass) and the second pass agree or not. */
const agreements: [string, (row: Row) => number[]][] = [
  [
    'Deep Classify only where its wider reading agrees with default',
    (row) =>
      argmax(row.firstScores) === argmax(row.defaultScores) ? row.shippedScores : row.defaultScores,
  ],
  [
    'default where both readings agree against the second pass',
    (row) => {
      const d = argmax(row.defaultScores);
      return argmax(row.firstScores) === d && argmax(row.shippedScores) !== d
        ? row.defaultScores
        : row.shippedScores;
    },
  ],
  [
    'Deep Classify only where its second pass keeps its wider reading',
    (row) =>
      argmax(row.firstScores) === argmax(row.shippedScores) ? row.shippedScores : row.defaultScores,
  ],
];

const right = (row: Row, scores: readonly number[]) => (argmax(scores) === row.expected ? 1 : 0);

function perCell(predict: (row: Row) => number[]): [number, number][] {
  return cells.map((cell) => {
    const inCell = rows.filter((row) => `${row.set}/${row.variant}` === cell);
    return [
      inCell.reduce((sum, row) => sum + right(row, row.defaultScores), 0),
      inCell.reduce((sum, row) => sum + right(row, predict(row)), 0),
    ];
  });
}

const trials: [string, [number, number][]][] = [
  ['shipped Deep Classify', perCell((row) => row.shippedScores)],
];
for (const family of families) {
  for (const t of family.thresholds) {
    trials.push([`${family.name} ${t}`, perCell((row) => family.rule(row, t))]);
  }
  const chosen: number[] = [];
  const heldOut = perCell((row) => {
    const fold = foldOf(row.id);
    const training = rows.filter((other) => foldOf(other.id) !== fold);
    let best = { t: family.thresholds[0], right: -1 };
    for (const t of family.thresholds) {
      const count = training.reduce((sum, other) => sum + right(other, family.rule(other, t)), 0);
      if (count > best.right) best = { t, right: count };
    }
    chosen[fold] = best.t;
    return family.rule(row, best.t);
  });
  trials.push([`${family.name}: cross-validated`, heldOut]);
  console.log(`${family.name}: chosen per fold ${chosen.join(', ')}`);
}
for (const [name, rule] of agreements) trials.push([name, perCell(rule)]);
printTrialTable(cells, trials, '\n');

console.log('\nanswers that differ, per cell (default margin, confidence; + fixed, - broken):');
for (const cell of cells) {
  const lines = rows
    .filter((row) => `${row.set}/${row.variant}` === cell)
    .flatMap((row) => {
      const d = argmax(row.defaultScores);
      const a = argmax(row.shippedScores);
      if (d === a) return [];
      const sign = a === row.expected ? '+' : d === row.expected ? '-' : '~';
      const gap = (scores: readonly number[]) =>
        (Math.max(...scores) - scores[row.expected]).toFixed(3);
      return [
        `  ${sign} ${row.id}  d ${d} a ${a} want ${row.expected}  margin ${margin(row.defaultScores).toFixed(3)}` +
          ` conf ${confidence(row.defaultScores).toFixed(2)}  right's gap d ${gap(row.defaultScores)} a ${gap(row.shippedScores)}` +
          `  first ${argmax(row.firstScores)}`,
      ];
    });
  console.log(`${shortCell(cell)}:\n${lines.join('\n')}`);
}
