/**
 * Fits the calibration of the classifier's confidence (fusion.ts CALIBRATION) and reports how
 * well it reads as the probability of being right, on documents it was not fitted on.
 *
 * Procedure (record 0333): the evidence of every (set, schema variant, model, document) of
 * both development sets, pooled (evidence-dump.ts writes it), is scored by the service's own
 * fusion rule. The documents are dealt into FOLDS folds by their id, so a document's rows
 * (every variant, both models) fall in one fold. For each fold the calibration minimizing
 * the negative log-likelihood of the right category over the other folds is chosen on a
 * grid, then the winner's recalibration (fusion.ts WINNER_RECALIBRATION, record 0445) by the
 * logistic log-likelihood of the winner being right over the same folds, and the fold's
 * predictions get their confidence from both; the reliability tables and expected
 * calibration errors below are of those held-out confidences. The calibration to ship is the
 * one fitted on all the rows (printed last), the same procedure on more data.
 *
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/calibration-fit.js <dump.json>...
 */
import { separateNeighbours } from '../../src/documents/classify/near-neighbours.js';
import {
  CALIBRATION,
  categoryScore,
  probabilities,
  strength,
  winnerConfidence,
  WINNER_RECALIBRATION,
  type Calibration,
  type WinnerRecalibration,
} from '../../src/documents/classify/fusion.js';
import { calibration, type Prediction } from '../../test/support/classify-eval-metrics.js';
import type { EvalDocument } from '../../test/support/classify-eval.js';
import type { EvidenceRow } from './evidence-dump.js';
import { evidenceOf, readEvidenceDumps, type EvidenceDump } from './evidence-rows.js';
import { printReliability } from './report.js';

const FOLDS = 5;
const TEMPERATURES = [0.02, 0.025, 0.03, 0.035, 0.04, 0.045, 0.05, 0.06, 0.07, 0.08, 0.1];
const UNIFORM_SHARES = [0, 0.02, 0.05, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3];

interface Scored {
  row: EvidenceRow;
  scores: number[];
  chosen: number;
}

function scoreRow(row: EvidenceRow, dump: EvidenceDump): Scored {
  const { categories, criteria } = dump.schemas[`${row.set}/${row.variant}`];
  const evidence = evidenceOf(row);
  let scores = evidence.map((category) => ({
    score: categoryScore(category),
    criteria: category.criteria.map((criterion) => strength(criterion)),
  }));
  if (row.model === 'accurate') {
    const schema = categories.map((category, i) => ({ category, criteria: criteria[i] }));
    scores = separateNeighbours(schema, evidence, scores);
  }
  const values = scores.map((score) => score.score);
  const chosen = values.indexOf(Math.max(...values));
  return { row, scores: values, chosen };
}

function negativeLogLikelihood(items: readonly Scored[], fit: Calibration): number {
  let total = 0;
  for (const item of items) {
    total -= Math.log(Math.max(1e-12, probabilities(item.scores, fit)[item.row.expected]));
  }
  return total / items.length;
}

function fitCalibration(items: readonly Scored[]): Calibration {
  let best: { fit: Calibration; loss: number } | undefined;
  for (const temperature of TEMPERATURES) {
    for (const uniformShare of UNIFORM_SHARES) {
      const fit = { temperature, uniformShare };
      const loss = negativeLogLikelihood(items, fit);
      if (!best || loss < best.loss) best = { fit, loss };
    }
  }
  if (!best) throw new Error('nothing to fit');
  return best.fit;
}

const logit = (p: number) => Math.log(Math.max(1e-9, p) / Math.max(1e-9, 1 - p));

/** Gradient descent on the mean logistic log-loss of the winner being right. */
function fitWinner(items: readonly Scored[], fit: Calibration): WinnerRecalibration {
  const rows = items.map((item) => [
    1,
    logit(probabilities(item.scores, fit)[item.chosen]),
    logit(1 / item.scores.length),
    item.chosen === item.row.expected ? 1 : 0,
  ]);
  const weights = [0, 1, 0];
  for (let step = 0; step < 3000; step++) {
    const gradient = [0, 0, 0];
    for (const row of rows) {
      const z = weights.reduce((sum, weight, i) => sum + weight * row[i], 0);
      const error = 1 / (1 + Math.exp(-z)) - row[3];
      for (let i = 0; i < 3; i++) gradient[i] += (error * row[i]) / rows.length;
    }
    for (let i = 0; i < 3; i++) weights[i] -= 0.5 * gradient[i];
  }
  const [offset, slope, chance] = weights.map((value) => Math.round(value * 1000) / 1000);
  return { offset, slope, chance };
}

interface Fitted {
  calibration: Calibration;
  winner: WinnerRecalibration;
}

function fitBoth(items: readonly Scored[]): Fitted {
  const calibration = fitCalibration(items);
  return { calibration, winner: fitWinner(items, calibration) };
}

function prediction(item: Scored, fit: Fitted): Prediction {
  const document = { file: item.row.id, category: String(item.row.expected) } as EvalDocument;
  const probability = probabilities(item.scores, fit.calibration)[item.chosen];
  return {
    document,
    got: String(item.chosen),
    confidence: winnerConfidence(probability, 1 / item.scores.length, fit.winner),
    msPerPage: 0,
  };
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.log('usage: calibration-fit.js <evidence dump>...');
  process.exit(2);
}
const dump = readEvidenceDumps(files);
const items = dump.rows.map((row) => scoreRow(row, dump));
const ids = [...new Set(items.map((item) => item.row.id))].sort();
const foldOf = new Map(ids.map((id, i) => [id, i % FOLDS]));
const heldOut: { item: Scored; prediction: Prediction }[] = [];
for (let fold = 0; fold < FOLDS; fold++) {
  const fit = fitBoth(items.filter((item) => foldOf.get(item.row.id) !== fold));
  console.log(`fold ${fold}: fitted on the other folds ${JSON.stringify(fit)}`);
  for (const item of items.filter((item) => foldOf.get(item.row.id) === fold)) {
    heldOut.push({ item, prediction: prediction(item, fit) });
  }
}
const cell = (item: Scored) => `${item.row.set}, ${item.row.variant} schema, ${item.row.model}`;
const cells = [...new Set(heldOut.map(({ item }) => cell(item)))].sort();
console.log('\nheld-out expected calibration error (ECE) per set, schema and model:');
for (const name of cells) {
  const inCell = heldOut.filter(({ item }) => cell(item) === name);
  const shipped = inCell.map(({ item }) =>
    prediction(item, { calibration: CALIBRATION, winner: WINNER_RECALIBRATION }),
  );
  const held = calibration(inCell.map((entry) => entry.prediction));
  const right = inCell.filter(({ item }) => item.chosen === item.row.expected).length;
  console.log(
    `  ${name.padEnd(36)} n ${String(inCell.length).padStart(4)}  accuracy ` +
      `${((100 * right) / inCell.length).toFixed(1).padStart(5)} %  ECE held-out ${held.ece.toFixed(3)}` +
      `  (shipped calibration on all: ${calibration(shipped).ece.toFixed(3)})`,
  );
}
for (const model of ['default', 'accurate']) {
  printReliability(
    `${model}, held-out folds, every set and variant`,
    calibration(heldOut.filter(({ item }) => item.row.model === model).map((e) => e.prediction)),
  );
}
printReliability(
  'both models, held-out folds, every set and variant',
  calibration(heldOut.map((entry) => entry.prediction)),
);
console.log(`\nfitted on every row: ${JSON.stringify(fitBoth(items))}`);
console.log(
  `shipped (fusion.ts): ${JSON.stringify({ calibration: CALIBRATION, winner: WINNER_RECALIBRATION })}`,
);
