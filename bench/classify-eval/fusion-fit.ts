/**
 * Fits the fusion rule's weights (fusion.ts FusionWeights: each kind of evidence of a
 * criterion and of the category's name) on the development sets and reports, on documents
 * the fit did not see, how many are classified right against the shipped weights
 * (record 0446).
 *
 * Procedure: the evidence of every (set, schema variant, model, document) of both
 * development sets, pooled (evidence-dump.ts writes it). A category's score is linear in
 * eight features (the mean over its criteria of the semantic, lexical, layout and opening
 * evidence, and the same four of its name), so the weights are those of a conditional logit:
 * a softmax over the request's categories of their scores, the negative log-likelihood of the
 * right category minimized by gradient descent (Adam), with a small L2 pull of each weight
 * over the semantic one towards the shipped rule's. `--tied` keeps the rule's form (the
 * name's weights one multiple of the criterion's); `--accuracy` searches each weight on a
 * grid of multiples of the shipped one for the most training rows right instead;
 * `--model accurate` fits on one model's rows. The documents are dealt into FOLDS folds by
 * their id (a document's rows, every variant and both models, in one fold); each fold is
 * scored with the weights fitted on the others, the default model by its score, Deep
 * Classify by its near-neighbour pass on the same weights. The shipped weights were chosen
 * on the same development rows: their figures are not held out, the fitted ones are.
 *
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/fusion-fit.js <dump.json>...
 *      [--tied] [--accuracy] [--model default|accurate] [--l2 <pull>]
 */
import type { CategoryEvidence } from '../../src/documents/classify/evidence.js';
import {
  categoryScore,
  FUSION,
  strength,
  type EvidenceWeights,
  type FusionWeights,
} from '../../src/documents/classify/fusion.js';
import { separateNeighbours } from '../../src/documents/classify/near-neighbours.js';
import type { EvidenceRow } from './evidence-dump.js';
import { evidenceOf, readEvidenceDumps, type EvidenceDump } from './evidence-rows.js';

const FOLDS = 5;
const KINDS = ['semantic', 'lexical', 'layout', 'opening'] as const;

const argument = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const L2 = Number(argument('--l2', '0.01'));
/** The name's weights tied to the criterion's (LABEL_WEIGHT times them), as the rule was. */
const TIED = process.argv.includes('--tied');
/** Weights by the most training rows right (coordinate search) instead of the likelihood. */
const BY_ACCURACY = process.argv.includes('--accuracy');
const fitWeights = (items: readonly Item[]) =>
  BY_ACCURACY ? searchAccuracy(items, toVector(FUSION)) : fit(items, toVector(FUSION));
const files = process.argv
  .slice(2)
  .filter(
    (arg, i, all) => !arg.startsWith('--') && !['--l2', '--model'].includes(all[i - 1] ?? ''),
  );

/** Per category: the mean of its criteria's four kinds of evidence, then its name's four. */
function featuresOf(row: EvidenceRow): number[][] {
  return row.evidence.map(([label, ...criteria]) => {
    const mean = KINDS.map(
      (_, k) => criteria.reduce((sum, e) => sum + e[k], 0) / Math.max(1, criteria.length),
    );
    return [...mean, ...label];
  });
}

const toVector = (fusion: FusionWeights) => [
  ...KINDS.map((kind) => fusion.criterion[kind]),
  ...KINDS.map((kind) => fusion.label[kind]),
];
function toFusion(vector: readonly number[]): FusionWeights {
  const scale = vector[0];
  const part = (at: number) =>
    Object.fromEntries(
      KINDS.map((kind, k) => [kind, vector[at + k] / scale]),
    ) as unknown as EvidenceWeights;
  return { criterion: part(0), label: part(4) };
}

interface Item {
  row: EvidenceRow;
  features: number[][];
  evidence: CategoryEvidence[];
}

/** Share of `items` whose right category has the best linear score under weights `w`. */
function firstStageAccuracy(items: readonly Item[], w: readonly number[]): number {
  let right = 0;
  for (const { row, features } of items) {
    const scores = features.map((f) => f.reduce((sum, x, i) => sum + x * w[i], 0));
    if (scores.indexOf(Math.max(...scores)) === row.expected) right++;
  }
  return right / items.length;
}

/**
 * Coordinate search for the weights with the most training rows right (the scale fixed by
 * the criterion's semantic weight 1): each other weight tried at multiples of its start,
 * two sweeps; a change must gain a row to be taken.
 */
function searchAccuracy(items: readonly Item[], start: readonly number[]): number[] {
  const w = [...start];
  const factors = [0, 0.25, 0.5, 0.75, 1, 1.33, 1.67, 2, 3];
  for (let sweep = 0; sweep < 2; sweep++) {
    for (let i = 1; i < w.length; i++) {
      const base = start[i] === 0 ? 0.1 : start[i];
      let best = { value: w[i], accuracy: firstStageAccuracy(items, w) };
      for (const factor of factors) {
        const trial = [...w];
        trial[i] = factor * base;
        const accuracy = firstStageAccuracy(items, trial);
        if (accuracy > best.accuracy + 0.5 / items.length) best = { value: trial[i], accuracy };
      }
      w[i] = best.value;
    }
  }
  return w;
}

/** The eight weights of parameters `p`: free, or (TIED) four and the name's multiplier. */
function weightsOf(p: readonly number[]): number[] {
  return TIED ? [...p.slice(0, 4), ...p.slice(0, 4).map((a) => p[4] * a)] : [...p];
}

function parametersOf(weights: readonly number[]): number[] {
  return TIED ? [...weights.slice(0, 4), weights[4] / weights[0]] : [...weights];
}

/** The gradient over the parameters of one over the weights (chain rule of weightsOf). */
function chain(p: readonly number[], gradient: readonly number[]): number[] {
  if (!TIED) return [...gradient];
  const out = [0, 1, 2, 3].map((k) => gradient[k] + p[4] * gradient[4 + k]);
  out.push([0, 1, 2, 3].reduce((sum, k) => sum + p[k] * gradient[4 + k], 0));
  return out;
}

/** Conditional logit by Adam: weights (unscaled: their size is the softmax's sharpness). */
function fit(items: readonly Item[], start: readonly number[]): number[] {
  const prior = toVector(FUSION);
  const p = parametersOf(start.map((value, i) => (i < 4 || !TIED ? value * 20 : value)));
  const m = p.map(() => 0);
  const v = p.map(() => 0);
  for (let step = 1; step <= 1500; step++) {
    const w = weightsOf(p);
    const gradient = w.map(() => 0);
    for (const { row, features } of items) {
      const scores = features.map((f) => f.reduce((sum, x, i) => sum + x * w[i], 0));
      const best = Math.max(...scores);
      const exps = scores.map((value) => Math.exp(value - best));
      const total = exps.reduce((a, b) => a + b, 0);
      features.forEach((f, c) => {
        const share = exps[c] / total - (c === row.expected ? 1 : 0);
        f.forEach((x, i) => (gradient[i] += (share * x) / items.length));
      });
    }
    // The pull is on the shape (weights over the semantic weight), not the sharpness.
    w.forEach((value, i) => {
      if (i === 0) return;
      const off = value / w[0] - prior[i];
      gradient[i] += (2 * L2 * off) / w[0];
      gradient[0] -= (2 * L2 * off * value) / w[0] ** 2;
    });
    const g = chain(p, gradient);
    p.forEach((_, i) => {
      m[i] = 0.9 * m[i] + 0.1 * g[i];
      v[i] = 0.999 * v[i] + 0.001 * g[i] ** 2;
      const mh = m[i] / (1 - 0.9 ** step);
      const vh = v[i] / (1 - 0.999 ** step);
      p[i] -= (0.05 * mh) / (Math.sqrt(vh) + 1e-8);
    });
  }
  return weightsOf(p);
}

function chosen(item: Item, fusion: FusionWeights, dump: EvidenceDump): number {
  const { row, evidence } = item;
  let scores = evidence.map((category) => ({
    score: categoryScore(category, undefined, fusion),
    criteria: category.criteria.map((c) => strength(c, fusion.criterion)),
  }));
  if (row.model === 'accurate') {
    const { categories, criteria } = dump.schemas[`${row.set}/${row.variant}`];
    const schema = categories.map((category, i) => ({ category, criteria: criteria[i] }));
    scores = separateNeighbours(schema, evidence, scores, fusion);
  }
  const values = scores.map((score) => score.score);
  return values.indexOf(Math.max(...values));
}

const dump = readEvidenceDumps(files);
/** `--model accurate`: only that model's rows (weights of its own). */
const model = argument('--model', '');
const items: Item[] = dump.rows
  .filter((row) => !model || row.model === model)
  .map((row) => ({
    row,
    features: featuresOf(row),
    evidence: evidenceOf(row),
  }));
const ids = [...new Set(items.map((item) => item.row.id))].sort();
const foldOf = new Map(ids.map((id, i) => [id, i % FOLDS]));
const shippedRight = new Map<Item, boolean>();
const fittedRight = new Map<Item, boolean>();
for (let fold = 0; fold < FOLDS; fold++) {
  const theta = fitWeights(items.filter((item) => foldOf.get(item.row.id) !== fold));
  const fusion = toFusion(theta);
  console.log(`fold ${fold}: ${JSON.stringify(fusion)}`);
  for (const item of items.filter((item) => foldOf.get(item.row.id) === fold)) {
    fittedRight.set(item, chosen(item, fusion, dump) === item.row.expected);
    shippedRight.set(item, chosen(item, FUSION, dump) === item.row.expected);
  }
}
const cell = (item: Item) => `${item.row.set}/${item.row.variant}/${item.row.model}`;
const cells = [...new Set(items.map(cell))].sort();
let gain = 0;
console.log('\ncell: shipped -> fitted (held-out folds), documents right of n');
for (const name of cells) {
  const inCell = items.filter((item) => cell(item) === name);
  const shipped = inCell.filter((item) => shippedRight.get(item)).length;
  const fitted = inCell.filter((item) => fittedRight.get(item)).length;
  gain += fitted - shipped;
  console.log(
    `  ${name.padEnd(34)} ${shipped} -> ${fitted} of ${inCell.length} (${fitted - shipped >= 0 ? '+' : ''}${fitted - shipped})`,
  );
}
console.log(`total ${gain >= 0 ? '+' : ''}${gain}`);
const all = toFusion(fitWeights(items));
console.log(`\nfitted on every row: ${JSON.stringify(all)}`);
