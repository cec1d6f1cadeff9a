/**
 * Replays, on deep-dump.ts's output, scoring rules that change how the evidence is read for
 * every category alike (record 0476): hubness reduction (a passage's or a statement's
 * similarity to a background taken off), per-request standardization, other poolings of a
 * statement's passages. First the misses of the unseen set under the coarse and fine schemas:
 * which category wins instead, which kind of evidence puts it ahead, in which language.
 * Each rule is applied to both readings (the default model's passages and Deep Classify's
 * wider ones, which then gets the shipped second pass); documents right per cell,
 * default / accurate, with the worst cell against the shipped rule. Ties by schema order.
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/hubness-trial.js <dump.json>
 */
import { LABEL_WEIGHT } from '../../src/documents/classify/fusion.js';
import { type DumpRow as Row, readDumpArgument } from './deep-dump.types.js';
import {
  argmax,
  cellsOf,
  mean,
  NEAR,
  printTrialTable,
  secondPass,
  statementIndices,
  WEIGHTS,
} from './deep-replay.js';

/** Per category, per statement, per passage: the value whose best is the semantic evidence. */
type Values = number[][][];
interface Rule {
  /** What a statement reads in each passage; default: cosine less half the passage's mean. */
  values?: (row: Row, read: readonly boolean[]) => Values;
  /** Layout evidence of a statement; default: the dumped one. */
  layout?: (row: Row, category: number, statement: number) => number;
  /** Category scores from per-kind scores (a kind: mean of criteria + LABEL_WEIGHT x name). */
  combine?: (kinds: number[][]) => number[];
}

const { schemas, rows } = readDumpArgument('hubness-trial.js <deep-dump.json>');

const sd = (values: readonly number[]) => {
  const m = mean(values);
  return Math.sqrt(mean(values.map((value) => (value - m) ** 2)));
};
const topMean = (values: readonly number[], k: number) =>
  mean([...values].sort((a, b) => b - a).slice(0, k));
const schemaOf = (row: Row) => schemas[`${row.set}/${row.variant}`];
/** A passage's column over every statement of the request. */
const column = (row: Row, k: number) => row.cos.flat().map((line) => line[k]);
const passageCount = (row: Row) => row.cos[0][0].length;

/** Every passage less `offset(its cosines with every statement)`. */
function perPassage(row: Row, offset: (column: number[]) => number): Values {
  const offsets = Array.from({ length: passageCount(row) }, (_, k) => offset(column(row, k)));
  return row.cos.map((category) =>
    category.map((line) => line.map((value, k) => value - offsets[k])),
  );
}
const centred = (row: Row, share = 0.5) => perPassage(row, (values) => share * mean(values));

/** Each statement's centred values less `bias(statement's centred values read, c, s)`. */
function perStatement(
  bias: (line: number[], row: Row, category: number, statement: number) => number,
): (row: Row, read: readonly boolean[]) => Values {
  return (row, read) =>
    centred(row).map((category, c) =>
      category.map((line, s) => {
        const b = bias(
          line.filter((_, k) => read[k]),
          row,
          c,
          s,
        );
        return line.map((value) => value - b);
      }),
    );
}

/** Indices of the request's statements (flattened) of each category. */

/** Per category, per kind (semantic, lexical, layout, opening): mean of criteria + name's. */
function kindsOf(row: Row, deep: boolean, rule: Rule) {
  const read = row.inDefault.map((flag) => deep || flag === 1);
  const values = (rule.values ?? ((r) => centred(r)))(row, read);
  const opens = row.passagePages[0] >= 0;
  const perStatementKinds = row.evidence.map((category, c) =>
    category.map((e, s) => {
      const best = Math.max(...values[c][s].filter((_, k) => read[k]));
      return [
        Number.isFinite(best) ? best : 0,
        e[1],
        rule.layout ? rule.layout(row, c, s) : e[2],
        opens ? values[c][s][0] : 0,
      ];
    }),
  );
  const strengths = perStatementKinds.map((category) =>
    category.map((kinds) => kinds.reduce((sum, value, k) => sum + WEIGHTS[k] * value, 0)),
  );
  const kinds = perStatementKinds.map((category) =>
    [0, 1, 2, 3].map(
      (k) => mean(category.slice(1).map((x) => x[k])) + LABEL_WEIGHT * category[0][k],
    ),
  );
  const scores = rule.combine
    ? rule.combine(kinds)
    : kinds.map((k) => k.reduce((sum, value, i) => sum + WEIGHTS[i] * value, 0));
  return { strengths, scores, kinds };
}

const cells = cellsOf(rows);
function evaluate(rule: Rule): [number, number][] {
  const counts = new Map(cells.map((cell) => [cell, [0, 0] as [number, number]]));
  for (const row of rows) {
    const count = counts.get(`${row.set}/${row.variant}`) ?? [0, 0];
    if (argmax(kindsOf(row, false, rule).scores) === row.expected) count[0]++;
    const wide = kindsOf(row, true, rule);
    const deep = secondPass(row, schemaOf(row), wide.scores, (c, weights) => {
      const total = weights.reduce((sum, w) => sum + w, 0);
      const criteria = wide.strengths[c].slice(1).reduce((sum, v, i) => sum + weights[i] * v, 0);
      return (total > 0 ? criteria / total : 0) + LABEL_WEIGHT * wide.strengths[c][0];
    });
    if (argmax(deep) === row.expected) count[1]++;
  }
  return cells.map((cell) => counts.get(cell) ?? [0, 0]);
}

function printMisses() {
  const truth = new Map(
    rows
      .filter((row) => row.variant === 'criteria')
      .map((row) => [`${row.set}/${row.id}`, schemaOf(row).categories[row.expected]]),
  );
  const kindNames = ['semantic', 'lexical', 'layout', 'opening'];
  for (const variant of ['coarse', 'fine']) {
    for (const [model, scoresOf] of [
      ['default', (row: Row) => row.defaultScores],
      ['accurate', (row: Row) => row.shippedScores],
    ] as const) {
      const part = rows.filter((row) => row.set === 'unseen' && row.variant === variant);
      const winners = new Map<string, number>();
      const leading = new Map<string, number>();
      const languages = new Map<string, [number, number]>();
      const categories = new Map<string, [number, number]>();
      let close = 0;
      for (const row of part) {
        const scores = scoresOf(row);
        const won = argmax(scores);
        const right = won === row.expected ? 1 : 0;
        const code = row.language ?? '?';
        const language = languages.get(code) ?? [0, 0];
        languages.set(code, [language[0] + right, language[1] + 1]);
        const own = truth.get(`${row.set}/${row.id}`) ?? '?';
        const category = categories.get(own) ?? [0, 0];
        categories.set(own, [category[0] + right, category[1] + 1]);
        if (right) continue;
        const name = schemaOf(row).categories[won];
        winners.set(name, (winners.get(name) ?? 0) + 1);
        if (scores[won] - scores[row.expected] <= NEAR) close++;
        const kinds = (c: number) =>
          [0, 1, 2, 3].map(
            (k) =>
              WEIGHTS[k] *
              (mean(row.evidence[c].slice(1).map((e) => e[k])) +
                LABEL_WEIGHT * row.evidence[c][0][k]),
          );
        const gaps = kinds(won).map((value, k) => value - kinds(row.expected)[k]);
        const kind = kindNames[argmax(gaps)];
        leading.set(kind, (leading.get(kind) ?? 0) + 1);
      }
      const list = (map: Map<string, number>) =>
        [...map]
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${k} ${v}`)
          .join(', ');
      const shares = (map: Map<string, [number, number]>) =>
        [...map].map(([k, [r, n]]) => `${k} ${r}/${n}`).join(', ');
      console.log(`unseen ${variant}, ${model}: ${part.length - sum(categories)} misses`);
      console.log(`  won instead: ${list(winners)}`);
      console.log(`  kind of evidence most ahead for the winner: ${list(leading)}`);
      console.log(`  within ${NEAR} of the winner: ${close}`);
      console.log(`  right by language: ${shares(languages)}`);
      console.log(`  right by own category: ${shares(categories)}`);
    }
  }
}
const sum = (map: Map<string, [number, number]>) => [...map.values()].reduce((a, [r]) => a + r, 0);

/** Statement cosines of each statement with the other categories' statements. */
function requestBackground(row: Row, c: number, s: number, k: number): number {
  const indices = statementIndices(row);
  const own = new Set(indices[c]);
  const line = schemaOf(row).statementCosines[indices[c][s]];
  return topMean(
    line.filter((_, b) => !own.has(b)),
    k,
  );
}

/** Per-request standardization of each kind over the categories, blended at `alpha`. */
function standardized(alpha: number, kinds: readonly number[], reference: readonly number[]) {
  return (values: number[][]) => {
    const columns = [0, 1, 2, 3].map((k) => values.map((v) => v[k]));
    const adjusted = columns.map((xs, k) => {
      if (!kinds.includes(k)) return xs;
      const m = mean(xs);
      const spread = sd(xs);
      if (spread < 1e-9) return xs;
      return xs.map((x) => m + (alpha * (reference[k] / spread) + (1 - alpha)) * (x - m));
    });
    return values.map((_, c) => adjusted.reduce((total, xs, k) => total + WEIGHTS[k] * xs[c], 0));
  };
}
/** Mean spread of each kind over a request's categories, default reading. */
const reference = [0, 1, 2, 3].map((k) =>
  mean(rows.map((row) => sd(kindsOf(row, false, {}).kinds.map((kinds) => kinds[k])))),
);

const trials: [string, Rule][] = [['shipped', {}]];
for (const [k, share] of [
  [1, 0.5],
  [3, 0.5],
  [5, 0.5],
  [10, 0.5],
  [5, 0.3],
]) {
  trials.push([
    `passage hubness: top-${k} statements x${share}`,
    { values: (row) => perPassage(row, (values) => share * topMean(values, k)) },
  ]);
}
for (const temperature of [0.05, 0.1]) {
  trials.push([
    `passage hubness: inverted softmax T${temperature}`,
    {
      values: (row) =>
        perPassage(row, (values) => {
          const top = Math.max(...values);
          const exps = values.map((v) => Math.exp((v - top) / temperature));
          return 0.5 * (top + temperature * Math.log(mean(exps)));
        }),
    },
  ]);
}
for (const share of [0.25, 0.75, 1]) {
  trials.push([`centring share ${share}`, { values: (row) => centred(row, share) }]);
}
for (const [k, beta] of [
  [3, 0.25],
  [10, 0.25],
  [1000, 0.25],
  [1000, 0.5],
]) {
  trials.push([
    `statement hubness: own passages top-${k} x${beta}`,
    { values: perStatement((line) => beta * topMean(line, k)) },
  ]);
}
for (const [k, beta] of [
  [1, 0.25],
  [3, 0.25],
  [10, 0.25],
  [10, 0.5],
]) {
  trials.push([
    `statement hubness: request top-${k} x${beta}`,
    { values: perStatement((_, row, c, s) => beta * requestBackground(row, c, s, k)) },
  ]);
}
for (const k of [2, 3]) {
  trials.push([
    `pooling: mean of best ${k} passages`,
    { values: perStatement((line) => Math.max(...line) - topMean(line, k)) },
  ]);
}
for (const [k, beta, weight] of [
  [5, 0.5, 0.75],
  [25, 0.5, 0.75],
  [25, 1, 0.75],
]) {
  trials.push([
    `layout hubness: inventory top-${k} x${beta}, w${weight}`,
    {
      layout: (row, c, s) =>
        (weight / WEIGHTS[2]) *
        (Math.max(...row.formCos[c][s]) - beta * topMean(schemaOf(row).inventoryCosines[c][s], k)),
    },
  ]);
}
for (const [label, kinds] of [
  ['every kind', [0, 1, 2, 3]],
  ['semantic', [0]],
  ['lexical', [1]],
  ['layout', [2]],
] as const) {
  for (const alpha of [0.25, 0.5]) {
    trials.push([
      `standardized per request: ${label} a${alpha}`,
      { combine: standardized(alpha, kinds, reference) },
    ]);
  }
}

printMisses();
printTrialTable(
  cells,
  trials.map(([name, rule]) => [name, evaluate(rule)] as const),
  '\n',
);
