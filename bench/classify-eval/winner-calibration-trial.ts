/**
 * Refits the calibration of the classifier's confidence (fusion.ts CALIBRATION and
 * WINNER_RECALIBRATION) and trials further general inputs of the winner's recalibration,
 * each family scored on documents held out of its fit (record 0528).
 *
 * The evidence of every (set, schema variant, model, document) of both development sets
 * (evidence-dump.ts) is scored by the service's own fusion rule, the winner chosen by its
 * own tie rule (confidence.ts chooseCategory). Documents are dealt into FOLDS folds by set
 * and id, so a document's rows (every variant, both models) fall in one fold. For each fold
 * a family is fitted on the other folds: the softmax (temperature, uniform share) by the
 * likelihood of the right category on a grid (record 0333) or kept as shipped, then the
 * winner's logistic recalibration by the log-likelihood of the winner being right (record
 * 0445) on the family's inputs. The held-out confidences give each cell's expected
 * calibration error; "shipped" is the service's confidence itself (categoryConfidences).
 * A recalibration moves only the winner's share, so no family changes which category wins.
 *
 * Run: tsc -p tsconfig.bench.json &&
 *      node dist/bench/classify-eval/winner-calibration-trial.js <evidence dump>... [--tables] [--deal <k>] [--languages <file>]
 */
import fs from 'node:fs';
import {
  categoryConfidences,
  chooseCategory,
  TIE,
} from '../../src/documents/classify/confidence.js';
import { separateNeighbours } from '../../src/documents/classify/near-neighbours.js';
import {
  categoryScore,
  probabilities,
  strength,
  type Calibration,
} from '../../src/documents/classify/fusion.js';
import type { CategoryScore } from '../../src/documents/classify/classify.types.js';
import { calibration, type Prediction } from '../../test/support/classify-eval-metrics.js';
import type { EvalDocument } from '../../test/support/classify-eval.js';
import { evidenceOf, readEvidenceDumps, type EvidenceDump } from './evidence-rows.js';
import type { EvidenceRow } from './evidence-dump.js';
import type { LanguageDump } from './language-dump.js';
import { printReliability } from './report.js';

const FOLDS = 5;
const TEMPERATURES = [0.02, 0.025, 0.03, 0.035, 0.04, 0.045, 0.05, 0.06, 0.07, 0.08, 0.1];
const UNIFORM_SHARES = [0, 0.02, 0.05, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3];
const SHIPPED_SOFTMAX: Calibration = { temperature: 0.035, uniformShare: 0.05 };
/** The language the schemas of both sets are written in. */
const REQUEST_LANGUAGE = 'en';

interface Item {
  row: EvidenceRow;
  scores: CategoryScore[];
  values: number[];
  chosen: number;
  right: boolean;
  shipped: number;
}

const logit = (p: number) => {
  const clamped = Math.min(1 - 1e-9, Math.max(1e-9, p));
  return Math.log(clamped / (1 - clamped));
};

function scoreRow(row: EvidenceRow, dump: EvidenceDump): Item {
  const { categories, criteria } = dump.schemas[`${row.set}/${row.variant}`];
  const evidence = evidenceOf(row);
  let scores: CategoryScore[] = evidence.map((category) => ({
    score: categoryScore(category),
    criteria: category.criteria.map((criterion) => strength(criterion)),
  }));
  if (row.model === 'accurate') {
    const schema = categories.map((category, i) => ({ category, criteria: criteria[i] }));
    scores = separateNeighbours(schema, evidence, scores);
  }
  const chosen = chooseCategory(scores, categories);
  return {
    row,
    scores,
    values: scores.map((score) => score.score),
    chosen,
    right: chosen === row.expected,
    shipped: categoryConfidences(scores)[chosen],
  };
}

/** What a winner's recalibration may read: all general, none names a category. */
interface Inputs {
  /** logit of the tied winners' summed softmax share. */
  share: number;
  /** logit of chance, tied / n. */
  chance: number;
  tied: number;
  /** Best score less the best score not tied with it. */
  margin: number;
  best: number;
  categories: number;
  /** 1 when the document's language is not the request's. */
  otherLanguage: number;
}

function inputsOf(item: Item, softmax: Calibration): Inputs {
  const spread = probabilities(item.values, softmax);
  const best = Math.max(...item.values);
  const isTied = (value: number) => best - value <= TIE;
  const tied = item.values.filter(isTied).length;
  const share = spread.reduce((sum, p, i) => sum + (isTied(item.values[i]) ? p : 0), 0);
  const rest = item.values.filter((value) => !isTied(value));
  return {
    share: logit(share),
    chance: logit(tied / item.values.length),
    tied,
    margin: rest.length > 0 ? best - Math.max(...rest) : 0,
    best,
    categories: item.values.length,
    otherLanguage: languageOf(item) === requestLanguageOf(item) ? 0 : 1,
  };
}

/**
 * `--languages <file>` (language-dump.ts): the languages the service detects in the document
 * as each model reads it and in the request; else the set manifest's, against English.
 */
const languageFile = process.argv.includes('--languages')
  ? process.argv[process.argv.indexOf('--languages') + 1]
  : '';
const detected = languageFile
  ? (JSON.parse(fs.readFileSync(languageFile, 'utf8')) as LanguageDump)
  : undefined;
function languageOf(item: Item): string {
  const { set, model, id, language } = item.row;
  return detected ? detected.documents[`${set}/${model}/${id}`] : (language ?? REQUEST_LANGUAGE);
}
function requestLanguageOf(item: Item): string {
  return detected ? detected.requests[`${item.row.set}/${item.row.variant}`] : REQUEST_LANGUAGE;
}

interface Family {
  name: string;
  /** Refit the softmax on the training folds, or keep the shipped one. */
  refitSoftmax: boolean;
  /** The softmax's share as it is, no recalibration of the winner (records 0333, 0429). */
  raw?: boolean;
  features: (inputs: Inputs) => number[];
}

const BASE_FAMILIES: Family[] = [
  { name: 'softmax only (0333)', refitSoftmax: true, raw: true, features: (x) => [x.share] },
  {
    name: '0445: softmax + winner (p, chance)',
    refitSoftmax: true,
    features: (x) => [x.share, x.chance],
  },
  {
    name: 'shipped softmax + winner (p, chance)',
    refitSoftmax: false,
    features: (x) => [x.share, x.chance],
  },
  { name: '+ margin', refitSoftmax: true, features: (x) => [x.share, x.chance, x.margin] },
  { name: '+ best score', refitSoftmax: true, features: (x) => [x.share, x.chance, x.best] },
  {
    name: '+ log categories',
    refitSoftmax: true,
    features: (x) => [x.share, x.chance, Math.log(x.categories)],
  },
  {
    name: '+ p x log categories',
    refitSoftmax: true,
    features: (x) => [x.share, x.chance, x.share * Math.log(x.categories)],
  },
  {
    name: '+ other language',
    refitSoftmax: true,
    features: (x) => [x.share, x.chance, x.otherLanguage],
  },
  {
    name: '+ p x other language',
    refitSoftmax: true,
    features: (x) => [x.share, x.chance, x.otherLanguage, x.share * x.otherLanguage],
  },
  {
    name: '+ margin + best',
    refitSoftmax: true,
    features: (x) => [x.share, x.chance, x.margin, x.best],
  },
  {
    name: '+ margin + best + other language',
    refitSoftmax: true,
    features: (x) => [x.share, x.chance, x.margin, x.best, x.otherLanguage],
  },
  {
    name: '+ all (margin, best, log n, language)',
    refitSoftmax: true,
    features: (x) => [x.share, x.chance, x.margin, x.best, Math.log(x.categories), x.otherLanguage],
  },
];

/** Each family with inputs beyond 0445's also with the shipped softmax kept. */
const FAMILIES: Family[] = [
  ...BASE_FAMILIES,
  ...BASE_FAMILIES.filter((family) => family.name.startsWith('+')).map((family) => ({
    ...family,
    name: `kept softmax ${family.name}`,
    refitSoftmax: false,
  })),
];

function fitSoftmax(items: readonly Item[]): Calibration {
  let best: { fit: Calibration; loss: number } | undefined;
  for (const temperature of TEMPERATURES) {
    for (const uniformShare of UNIFORM_SHARES) {
      const fit = { temperature, uniformShare };
      let loss = 0;
      for (const item of items) {
        loss -= Math.log(Math.max(1e-12, probabilities(item.values, fit)[item.row.expected]));
      }
      if (!best || loss < best.loss) best = { fit, loss };
    }
  }
  if (!best) throw new Error('nothing to fit');
  return best.fit;
}

/** Solves a small linear system by Gaussian elimination with partial pivoting. */
function solve(matrix: number[][], vector: number[]): number[] {
  const n = vector.length;
  const a = matrix.map((row, i) => [...row, vector[i]]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    for (let r = 0; r < n; r++) {
      if (r === col || a[col][col] === 0) continue;
      const factor = a[r][col] / a[col][col];
      for (let c = col; c <= n; c++) a[r][c] -= factor * a[col][c];
    }
  }
  return a.map((row, i) => (row[i] === 0 ? 0 : row[n] / row[i]));
}

/** Logistic regression (intercept first) by Newton's method, a whisker of ridge for stability. */
function fitLogistic(xs: number[][], ys: number[]): number[] {
  const k = xs[0].length + 1;
  let w: number[] = Array.from({ length: k }, (_, i) => (i === 1 ? 1 : 0));
  for (let step = 0; step < 50; step++) {
    const hessian = Array.from({ length: k }, () => Array.from({ length: k }, () => 0));
    const gradient = Array.from({ length: k }, () => 0);
    xs.forEach((x, n) => {
      const row = [1, ...x];
      const z = row.reduce((sum, value, i) => sum + value * w[i], 0);
      const p = 1 / (1 + Math.exp(-z));
      for (let i = 0; i < k; i++) {
        gradient[i] += (p - ys[n]) * row[i];
        for (let j = 0; j < k; j++) hessian[i][j] += p * (1 - p) * row[i] * row[j];
      }
    });
    for (let i = 0; i < k; i++) {
      hessian[i][i] += 1e-3;
      gradient[i] += 1e-3 * w[i];
    }
    const delta = solve(hessian, gradient);
    w = w.map((value, i) => value - delta[i]);
    if (Math.max(...delta.map(Math.abs)) < 1e-9) break;
  }
  return w;
}

interface Fitted {
  softmax: Calibration;
  weights: number[];
}

function fit(family: Family, items: readonly Item[]): Fitted {
  const softmax = family.refitSoftmax ? fitSoftmax(items) : SHIPPED_SOFTMAX;
  const xs = items.map((item) => family.features(inputsOf(item, softmax)));
  return {
    softmax,
    weights: fitLogistic(
      xs,
      items.map((item) => (item.right ? 1 : 0)),
    ),
  };
}

/** The chosen category's confidence: the tied winners' recalibrated share, split equally. */
function confidenceOf(family: Family, fitted: Fitted, item: Item): number {
  const inputs = inputsOf(item, fitted.softmax);
  const row = [1, ...family.features(inputs)];
  const z = row.reduce((sum, value, i) => sum + value * fitted.weights[i], 0);
  const recalibrated = family.raw ? 1 / (1 + Math.exp(-inputs.share)) : 1 / (1 + Math.exp(-z));
  const winners = inputs.tied === item.values.length ? 1 : recalibrated;
  return Math.round((winners / inputs.tied) * 10_000) / 10_000;
}

function predictionOf(item: Item, confidence: number): Prediction {
  const document = { file: item.row.id, category: String(item.row.expected) } as EvalDocument;
  return { document, got: String(item.chosen), confidence, msPerPage: 0 };
}

const files = process.argv
  .slice(2)
  .filter(
    (arg, i, all) => !arg.startsWith('--') && !['--deal', '--languages'].includes(all[i - 1]),
  );
if (files.length === 0) {
  console.log(
    'usage: winner-calibration-trial.js <evidence dump>... [--tables] [--deal <k>] [--languages <file>]',
  );
  process.exit(2);
}
const dump = readEvidenceDumps(files);
const items = dump.rows.map((row) => scoreRow(row, dump));
const key = (item: Item) => `${item.row.set}/${item.row.id}`;
/**
 * `--deal <k>`: documents dealt by a hash of their key salted with k instead of in name
 * order, to see whether a family's place holds on other folds.
 */
const deal = process.argv.includes('--deal')
  ? process.argv[process.argv.indexOf('--deal') + 1]
  : '';
const hashOf = (text: string) => [...text].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
/** In the order of the documents' ids, as calibration-fit.ts deals them (records 0333, 0445). */
const byId = (a: string, b: string) => {
  const [x, y] = [a.slice(a.indexOf('/') + 1), b.slice(b.indexOf('/') + 1)];
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : 1;
};
const ids = [...new Set(items.map(key))].sort((a, b) =>
  deal ? hashOf(deal + a) - hashOf(deal + b) || (a < b ? -1 : 1) : byId(a, b),
);
const foldOf = new Map(ids.map((id, i) => [id, i % FOLDS]));
const cellOf = (item: Item) => `${item.row.set} ${item.row.variant} ${item.row.model}`;
const cells = [...new Set(items.map(cellOf))].sort();
const ece = (chosen: readonly Item[], confidences: Map<Item, number>) =>
  calibration(chosen.map((item) => predictionOf(item, confidences.get(item) ?? 0))).ece;

function report(name: string, confidences: Map<Item, number>, previous?: Map<string, number>) {
  const perCell = new Map(
    cells.map((cell) => [
      cell,
      ece(
        items.filter((i) => cellOf(i) === cell),
        confidences,
      ),
    ]),
  );
  const bySet = (set: string) =>
    ece(
      items.filter((item) => item.row.set === set),
      confidences,
    );
  const above = [...perCell.values()].filter((value) => value > 0.1).length;
  const newlyAbove = previous
    ? cells.filter((cell) => (perCell.get(cell) ?? 0) > 0.1 && (previous.get(cell) ?? 0) <= 0.1)
    : [];
  const logLoss =
    -items.reduce((sum, item) => {
      const c = Math.min(1 - 1e-6, Math.max(1e-6, confidences.get(item) ?? 0));
      return sum + Math.log(item.right ? c : 1 - c);
    }, 0) / items.length;
  console.log(
    `${name.padEnd(40)} ECE pooled ${ece(items, confidences).toFixed(4)}  business ${bySet('business').toFixed(3)}` +
      `  unseen ${bySet('unseen').toFixed(3)}  log-loss ${logLoss.toFixed(4)}  cells > 0.10: ${above}` +
      (newlyAbove.length > 0 ? `  newly above: ${newlyAbove.join(', ')}` : ''),
  );
  return perCell;
}

const accuracy = (cell: string) => {
  const inCell = items.filter((item) => cellOf(item) === cell);
  const mean = inCell.reduce((sum, item) => sum + item.shipped, 0) / inCell.length;
  return `${inCell.filter((item) => item.right).length}/${inCell.length} ${mean.toFixed(2)}`;
};
const shipped = new Map(items.map((item) => [item, item.shipped]));
const tables: [string, Map<string, number>][] = [];
console.log(`${items.length} predictions, ${ids.length} documents, ${FOLDS} folds by document\n`);
const shippedCells = report('shipped (fusion.ts), every row', shipped);
tables.push(['shipped', shippedCells]);
for (const family of FAMILIES) {
  const held = new Map<Item, number>();
  const folds: string[] = [];
  for (let fold = 0; fold < FOLDS; fold++) {
    const fitted = fit(
      family,
      items.filter((item) => foldOf.get(key(item)) !== fold),
    );
    folds.push(
      `${fitted.softmax.temperature}/${fitted.softmax.uniformShare} [${fitted.weights.map((w) => w.toFixed(2)).join(' ')}]`,
    );
    for (const item of items.filter((item) => foldOf.get(key(item)) === fold)) {
      held.set(item, confidenceOf(family, fitted, item));
    }
  }
  tables.push([family.name, report(`${family.name}, held out`, held, shippedCells)]);
  const all = fit(family, items);
  const inSample = new Map(items.map((item) => [item, confidenceOf(family, all, item)]));
  tables.push([
    `${family.name}, fitted on every row`,
    report(`${family.name}, every row fit, in sample`, inSample, shippedCells),
  ]);
  console.log(
    `    folds: ${folds.join('; ')}\n    every row: T ${all.softmax.temperature} s ${all.softmax.uniformShare}` +
      ` weights [${all.weights.map((w) => w.toFixed(3)).join(', ')}]`,
  );
  if (process.argv.includes('--tables')) {
    printReliability(
      `${family.name}, held out, every row`,
      calibration(items.map((item) => predictionOf(item, held.get(item) ?? 0))),
    );
  }
}
/**
 * The ECE a cell shows by sampling alone: outcomes drawn as right with the shipped
 * confidence's own probability (a perfectly calibrated answer), mean over DRAWS draws.
 */
const DRAWS = 400;
let seed = 12345;
const uniform = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
console.log('\nECE of a perfectly calibrated confidence by sampling alone (shipped confidences):');
for (const cell of cells) {
  const inCell = items.filter((item) => cellOf(item) === cell);
  let sum = 0;
  for (let draw = 0; draw < DRAWS; draw++) {
    const drawn = inCell.map((item) => {
      const document = { file: item.row.id, category: 'right' } as EvalDocument;
      const got = uniform() < item.shipped ? 'right' : 'wrong';
      return { document, got, confidence: item.shipped, msPerPage: 0 };
    });
    sum += calibration(drawn).ece;
  }
  console.log(`  ${cell.padEnd(26)} ${(sum / DRAWS).toFixed(3)}`);
}
console.log('\nheld-out ECE per cell (right/n, mean shipped confidence):');
console.log(
  `  ${'cell'.padEnd(26)} ${'right  conf'.padStart(12)} ${tables.map((_, i) => String(i).padStart(6)).join('')}`,
);
for (const cell of cells) {
  console.log(
    `  ${cell.padEnd(26)} ${accuracy(cell).padStart(12)} ${tables.map(([, perCell]) => (perCell.get(cell) ?? 0).toFixed(3).padStart(6)).join('')}`,
  );
}
tables.forEach(([name], i) => console.log(`  ${i}: ${name}`));
