/**
 * Replays, on deep-dump.ts's output, other ways of combining a category's criteria into its
 * score (record 0484): the fusion rule takes their mean strength, which suits criteria that
 * all describe the same document and punishes a category whose criteria are alternatives (a
 * document of one alternative matches one criterion well and the others poorly). Each rule
 * is the same for every category and request: soft maxima (log-sum-exp at a temperature,
 * the mean blended with the best, the mean of the best k), criteria read as their
 * alternatives (a criterion's semantic evidence the best of the whole and its parts split at
 * punctuation, deep-dump.ts `--parts`), the name's weight against the number of criteria,
 * shrinkage towards the request's mean criterion, criteria weighted by how distinct or how
 * central they are, and the layout evidence centred on the request as passages are. Both
 * readings, as hubness-trial.ts: the default model's passages and Deep Classify's, which then
 * gets the shipped second pass with the same aggregation; documents right per cell, default /
 * accurate, with the worst cell against the shipped rule, then how many of the default
 * model's misses any blend of mean and best reaches, and, for a rule named as the second
 * argument, the unseen coarse and fine documents whose answer it or the shipped rule gets
 * wrong. Ties by schema order.
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/aggregation-trial.js <dump.json> ['<rule>']
 */
import { LABEL_WEIGHT } from '../../src/documents/classify/fusion.js';
import { type DumpRow as Row, readDumpArgument } from './deep-dump.types.js';
import {
  argmax,
  cellsOf,
  mean,
  printTrialTable,
  secondPass,
  statementIndices,
  WEIGHTS,
} from './deep-replay.js';

/** A category's criteria strengths, weighted (Deep Classify's distinct criteria), to one. */
type Aggregate = (strengths: readonly number[], weights: readonly number[]) => number;
interface Rule {
  aggregate?: Aggregate;
  /** Each form sentence's cosines less this share of its mean over the request's statements. */
  layoutCentring?: number;
  /** Each criterion's weight in its category's first score (default: equal). */
  criterionWeights?: (row: Row, category: number) => number[];
  /** The aggregation applies to Deep Classify's second pass over near neighbours alone. */
  secondOnly?: boolean;
  /** An aggregation that also reads every category's strengths ([name, ...criteria]). */
  requestAggregate?: (request: readonly (readonly number[])[]) => Aggregate;
  /** The name's weight for a category of `n` criteria. */
  labelWeight?: (n: number) => number;
  /** How a criterion's parts' best centred values join its own (undefined: not read). */
  parts?: (whole: number, parts: readonly number[]) => number;
  /** Parts also count for the opening. */
  partsOpening?: boolean;
  /** Which parts: split at punctuation alone, or each item after a colon with its head. */
  headed?: boolean;
  /** Parts centred on each passage's mean over the request's parts, not its statements. */
  partCentring?: boolean;
  /** Parts' best values less their mean's excess over the statements' mean (per request). */
  partLevel?: boolean;
}

const { schemas, rows } = readDumpArgument('aggregation-trial.js <deep-dump.json>');

const schemaOf = (row: Row) => schemas[`${row.set}/${row.variant}`];

const weightedMean: Aggregate = (values, weights) => {
  const total = weights.reduce((sum, w) => sum + w, 0);
  return total > 0 ? values.reduce((sum, v, i) => sum + weights[i] * v, 0) / total : 0;
};
/** T log(weighted mean of exp(v / T)): the mean as T grows, the best as it shrinks. */
const logSumExp =
  (temperature: number): Aggregate =>
  (values, weights) => {
    const total = weights.reduce((sum, w) => sum + w, 0);
    if (total <= 0 || values.length === 0) return 0;
    const top = Math.max(...values);
    const sum = values.reduce((s, v, i) => s + weights[i] * Math.exp((v - top) / temperature), 0);
    return top + temperature * Math.log(sum / total);
  };
const blendMax =
  (share: number): Aggregate =>
  (values, weights) => {
    const counted = values.filter((_, i) => weights[i] > 0);
    const best = counted.length > 0 ? Math.max(...counted) : 0;
    return share * best + (1 - share) * weightedMean(values, weights);
  };
const topK =
  (k: number): Aggregate =>
  (values, weights) => {
    const order = values.map((_, i) => i).sort((a, b) => values[b] - values[a]);
    const kept = new Set(order.slice(0, Math.max(1, k)));
    return weightedMean(
      values,
      weights.map((w, i) => (kept.has(i) ? w : 0)),
    );
  };
/** Power mean over strengths shifted to be positive (+1), exponent p. */
const powerMean =
  (p: number): Aggregate =>
  (values, weights) => {
    const total = weights.reduce((sum, w) => sum + w, 0);
    if (total <= 0) return 0;
    const sum = values.reduce((s, v, i) => s + weights[i] * Math.max(1e-6, v + 1) ** p, 0);
    return (sum / total) ** (1 / p) - 1;
  };

/** Each passage's centring offset: half its mean cosine over every statement of the request. */
function offsets(row: Row): number[] {
  const all = row.cos.flat();
  const sums = new Array<number>(all[0]?.length ?? 0).fill(0);
  for (const line of all) line.forEach((value, k) => (sums[k] += value / all.length));
  return sums.map((value) => 0.5 * value);
}

/** Per category, per statement: its strength, in the reading `deep` or default's. */
function strengthsOf(row: Row, deep: boolean, rule: Rule): number[][] {
  const read = row.inDefault.map((flag) => deep || flag === 1);
  const offset = offsets(row);
  const opens = row.passagePages[0] >= 0;
  const bestOf = (line: readonly number[], by: readonly number[]) => {
    const value = Math.max(...line.map((v, k) => v - by[k]).filter((_, k) => read[k]));
    return Number.isFinite(value) ? value : 0;
  };
  const partLines = (rule.headed ? row.headedPartCos : row.partCos) ?? [];
  const allParts = partLines.flat(2);
  const partOffset =
    rule.partCentring && allParts.length > 0
      ? offset.map(
          (_, k) => (0.5 * allParts.reduce((sum, line) => sum + line[k], 0)) / allParts.length,
        )
      : offset;
  let shift = 0;
  if (rule.partLevel && allParts.length > 0) {
    const wholes = row.cos.flatMap((category) => category.slice(1)).map((l) => bestOf(l, offset));
    shift = mean(allParts.map((l) => bestOf(l, partOffset))) - mean(wholes);
  }
  const formLines = row.formCos.flat();
  const formOffset = (formLines[0] ?? []).map(
    (_, f) => (rule.layoutCentring ?? 0) * mean(formLines.map((line) => line[f])),
  );
  return row.evidence.map((category, c) =>
    category.map((e, s) => {
      const layout =
        rule.layoutCentring === undefined || formOffset.length === 0
          ? e[2]
          : Math.max(...row.formCos[c][s].map((v, f) => v - formOffset[f]));
      let semantic = bestOf(row.cos[c][s], offset);
      let opening = opens ? row.cos[c][s][0] - offset[0] : 0;
      const parts = s > 0 ? partLines[c]?.[s - 1] : undefined;
      if (rule.parts && parts && parts.length > 1) {
        semantic = rule.parts(
          semantic,
          parts.map((line) => bestOf(line, partOffset) - shift),
        );
        if (rule.partsOpening && opens) {
          opening = rule.parts(
            opening,
            parts.map((line) => line[0] - partOffset[0] - shift),
          );
        }
      }
      return WEIGHTS[0] * semantic + WEIGHTS[1] * e[1] + WEIGHTS[2] * layout + WEIGHTS[3] * opening;
    }),
  );
}

function score(strengths: readonly number[], rule: Rule, weights?: readonly number[]): number {
  const criteria = strengths.slice(1);
  const labelWeight = rule.labelWeight ? rule.labelWeight(criteria.length) : LABEL_WEIGHT;
  const aggregate = rule.aggregate ?? weightedMean;
  const w = weights ?? criteria.map(() => 1);
  return (criteria.length > 0 ? aggregate(criteria, w) : strengths[0]) + labelWeight * strengths[0];
}

/** Per row: [default model's scores, Deep Classify's]. */
function scoresOf(row: Row, given: Rule): [number[], number[]] {
  const plain = strengthsOf(row, false, given);
  const wide = strengthsOf(row, true, given);
  const rule = given.requestAggregate
    ? { ...given, aggregate: given.requestAggregate(plain) }
    : given;
  const first = rule.secondOnly ? {} : rule;
  const weightsOf = (c: number) => rule.criterionWeights?.(row, c);
  const firstWide = wide.map((s, c) => score(s, first, weightsOf(c)));
  return [
    plain.map((s, c) => score(s, first, weightsOf(c))),
    secondPass(row, schemaOf(row), firstWide, (c, weights) => score(wide[c], rule, weights)),
  ];
}

const cells = cellsOf(rows);
function evaluate(rule: Rule): [number, number][] {
  const counts = new Map(cells.map((cell) => [cell, [0, 0] as [number, number]]));
  for (const row of rows) {
    const count = counts.get(`${row.set}/${row.variant}`) ?? [0, 0];
    const [plain, deep] = scoresOf(row, rule);
    if (argmax(plain) === row.expected) count[0]++;
    if (argmax(deep) === row.expected) count[1]++;
  }
  return cells.map((cell) => counts.get(cell) ?? [0, 0]);
}

/** Unseen coarse and fine misses of the shipped rule and whether a rule fixes them. */
function printMisses(rule: Rule, name: string) {
  for (const variant of ['coarse', 'fine']) {
    const part = rows.filter((row) => row.set === 'unseen' && row.variant === variant);
    const lines: string[] = [];
    for (const row of part) {
      const [plain] = scoresOf(row, {});
      const [after] = scoresOf(row, rule);
      const before = argmax(plain);
      const now = argmax(after);
      if (before === row.expected && now === row.expected) continue;
      const categories = schemaOf(row).categories;
      lines.push(
        `  ${row.id.slice(0, 48).padEnd(48)} ${categories[row.expected].padEnd(22)} ` +
          `${categories[before].padEnd(22)} -> ${categories[now]}`,
      );
    }
    console.log(`unseen ${variant}, default, shipped -> ${name}:\n${lines.join('\n')}`);
  }
}

const trials: [string, Rule][] = [['shipped', {}]];
for (const t of [0.02, 0.05, 0.1, 0.2, 0.3, 0.5, -0.5, -0.3, -0.2, -0.1])
  trials.push([`log-sum-exp T${t}`, { aggregate: logSumExp(t) }]);
for (const a of [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5, -0.1, -0.2])
  trials.push([`mean + best x${a}`, { aggregate: blendMax(a) }]);
for (const k of [1, 2, 3]) trials.push([`mean of best ${k}`, { aggregate: topK(k) }]);
for (const p of [0.5, 1.5, 2, 3, 4, 8])
  trials.push([`power mean p${p}`, { aggregate: powerMean(p) }]);
for (const [label, labelWeight] of [
  ['name x0.45 x sqrt(3/n)', (n: number) => LABEL_WEIGHT * Math.sqrt(3 / Math.max(1, n))],
  ['name x0.45 x 3/n', (n: number) => LABEL_WEIGHT * (3 / Math.max(1, n))],
  ['name x0.45 x sqrt(n/3)', (n: number) => LABEL_WEIGHT * Math.sqrt(Math.max(1, n) / 3)],
] as const) {
  trials.push([label, { labelWeight }]);
}
if (rows[0]?.partCos) {
  for (const headed of [false, true]) {
    for (const [centring, level] of [
      [false, false],
      [true, false],
      [false, true],
      [true, true],
    ]) {
      const kind = `${headed ? 'headed ' : ''}parts${centring ? ' c' : ''}${level ? ' l' : ''}`;
      const common = { headed, partCentring: centring, partLevel: level };
      const best = (w: number, p: readonly number[]) => Math.max(w, ...p);
      trials.push([`${kind}: best of whole and parts`, { parts: best, ...common }]);
      for (const share of [0.25, 0.5]) {
        trials.push([
          `${kind}: whole + ${share} (best part - whole)+`,
          { parts: (w, p) => w + share * Math.max(0, Math.max(...p) - w), ...common },
        ]);
      }
      trials.push([
        `${kind}: mean of whole and best part`,
        { parts: (w, p) => (w + Math.max(...p)) / 2, ...common },
      ]);
    }
  }
}

/** Each category's criteria shrunk towards the request's mean criterion by `k` pseudo-criteria. */
const shrunk =
  (k: number) =>
  (request: readonly (readonly number[])[]): Aggregate => {
    const prior = mean(request.flatMap((category) => category.slice(1)));
    return (values, weights) => {
      const total = weights.reduce((sum, w) => sum + w, 0);
      const sum = values.reduce((acc, v, i) => acc + weights[i] * v, 0);
      return (sum + k * prior) / (total + k);
    };
  };
for (const k of [0.5, 1, 2, -0.5])
  trials.push([`shrunk to the request's mean, k${k}`, { requestAggregate: shrunk(k) }]);
const spread =
  (lambda: number): Aggregate =>
  (values, weights) => {
    const m = weightedMean(values, weights);
    const sd = Math.sqrt(
      weightedMean(
        values.map((v) => (v - m) ** 2),
        weights,
      ),
    );
    return m - (lambda * sd) / Math.sqrt(Math.max(1, values.length));
  };
for (const lambda of [0.25, 0.5, 1, -0.5])
  trials.push([`mean - ${lambda} sd / sqrt(n)`, { aggregate: spread(lambda) }]);

for (const a of [0.2, 0.5, 1]) {
  trials.push([
    `second pass only: mean + best x${a}`,
    { aggregate: blendMax(a), secondOnly: true },
  ]);
}
for (const t of [0.05, 0.1]) {
  trials.push([
    `second pass only: log-sum-exp T${t}`,
    { aggregate: logSumExp(t), secondOnly: true },
  ]);
}

for (const share of [0, 0.25, 0.5, 0.75, 1]) {
  trials.push([`layout: form sentences centred x${share}`, { layoutCentring: share }]);
}
/**
 * Each criterion weighted by how distinct it is from every other category's criteria in the
 * request (1 - its highest cosine with them) to the power `gamma`; the names too with `names`.
 */
const distinctWeights =
  (gamma: number, names: boolean) =>
  (row: Row, c: number): number[] => {
    const cosines = schemaOf(row).statementCosines;
    const indices = statementIndices(row);
    const others = indices.flatMap((own, o) => (o === c ? [] : names ? own : own.slice(1)));
    return indices[c]
      .slice(1)
      .map((a) => Math.max(0.01, 1 - Math.max(0, ...others.map((b) => cosines[a][b]))) ** gamma);
  };
for (const gamma of [0.5, 1, 2]) {
  for (const names of [false, true]) {
    trials.push([
      `distinct criteria, request-wide, ^${gamma}${names ? ', names too' : ''}`,
      { criterionWeights: distinctWeights(gamma, names) },
    ]);
  }
}
/** Each criterion weighted by its mean cosine with its own category's other statements. */
const centralWeights =
  (gamma: number) =>
  (row: Row, c: number): number[] => {
    const cosines = schemaOf(row).statementCosines;
    const own = statementIndices(row)[c];
    return own
      .slice(1)
      .map(
        (a) => Math.max(0.01, mean(own.filter((b) => b !== a).map((b) => cosines[a][b]))) ** gamma,
      );
  };
for (const gamma of [0.5, 1, -0.5, -1]) {
  trials.push([
    `criteria weighted by centrality ^${gamma}`,
    { criterionWeights: centralWeights(gamma) },
  ]);
}

printTrialTable(
  cells,
  trials.map(([name, rule]) => [name, evaluate(rule)] as const),
);
/**
 * How far any blend of the mean and the best criterion could go: per cell, the default
 * model's misses and how many of them some blend (0, 0.05, ..., 1), chosen per document
 * with the answer known, gets right. An upper bound for every rule between the two.
 */
function blendReach() {
  const lines = cells.map((cell) => {
    const part = rows.filter((row) => `${row.set}/${row.variant}` === cell);
    let misses = 0;
    let reached = 0;
    for (const row of part) {
      if (argmax(scoresOf(row, {})[0]) === row.expected) continue;
      misses++;
      const shares = Array.from({ length: 21 }, (_, i) => i / 20);
      if (
        shares.some((a) => argmax(scoresOf(row, { aggregate: blendMax(a) })[0]) === row.expected)
      ) {
        reached++;
      }
    }
    return `  ${cell.padEnd(20)} misses ${String(misses).padStart(3)}, right at some blend ${reached}`;
  });
  console.log(`default model's misses a blend of mean and best reaches:\n${lines.join('\n')}`);
}
blendReach();
const shown = process.argv[3];
const chosen = trials.find(([name]) => name === shown);
if (chosen) printMisses(chosen[1], chosen[0]);
