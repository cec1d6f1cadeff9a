/**
 * Replays, on deep-dump.ts's output, form evidence that decides only among the categories the
 * content evidence leaves close (record 0537): a category's layout part (LAYOUT_WEIGHT x its
 * criteria's and name's layout evidence) counts in full when its content part (semantic,
 * lexical and opening evidence) is within t of the best content part of the request; a
 * category further behind keeps at most the lowest layout part among those close ones, so
 * the sentences describing the document's form can reorder the candidates its words make,
 * never lift a category its words do not support past one they do. The same for every
 * category and request. Both readings, as generality-trial.ts: the default model's passages
 * and Deep Classify's, which then gets the shipped second pass on the capped evidence. Each
 * family's t is also chosen by cross-validation over documents (5 folds by document id).
 * `--diff <t>` lists the rows whose answer changes at that t.
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/form-shortlist-trial.js
 *      <dump.json> [--diff t]
 */
import fs from 'node:fs';
import { LABEL_WEIGHT } from '../../src/documents/classify/fusion.js';
import { type DumpRow as Row, readDumpArgument } from './deep-dump.types.js';
import {
  argmax,
  cellsOf,
  mean,
  printTrialTable,
  secondPass,
  WEIGHTS,
  weightedStrength,
} from './deep-replay.js';
import { countCells as countRows, heldOutRights, type RowRights } from './trial-folds.js';

const { schemas, rows } = readDumpArgument('form-shortlist-trial.js <deep-dump.json> [--diff t]');
const unpagedAt = process.argv.indexOf('--unpaged');
/** Per `${set}/${id}`: documents of one page of unknown size (length-dump.ts's output). */
const unpaged = new Set(
  unpagedAt >= 0
    ? Object.keys(
        (
          JSON.parse(fs.readFileSync(process.argv[unpagedAt + 1], 'utf8')) as {
            unpaged: Record<string, number>;
          }
        ).unpaged,
      )
    : [],
);
const schemaOf = (row: Row) => schemas[`${row.set}/${row.variant}`];
const SEMANTIC = 0;
const LEXICAL = 1;
const LAYOUT = 2;
const OPENING = 3;

/** How the layout part of a category far behind in content is bounded. */
type Bound = 'lowest' | 'mean' | 'none';
interface Rule {
  /** Content gap within which layout counts in full (Infinity: shipped). */
  t: number;
  bound: Bound;
  /** Kinds counted as content. */
  content: number[];
  /** Only documents of one page whose size the reader does not know (text, Markdown, HTML). */
  unpagedOnly?: boolean;
  /** Instead of the shortlist: an unpaged document's layout parts times this, every category. */
  unpagedScale?: number;
}

/** Each passage's mean cosine over every statement of the request, halved (the centring). */
function offsetsOf(row: Row): number[] {
  const lines = row.cos.flat();
  return lines[0].map((_, k) => 0.5 * mean(lines.map((line) => line[k])));
}

/** Per category, per statement, the four kinds of evidence as the reading gathers them. */
function kindsOf(row: Row, deep: boolean): number[][][] {
  const read = row.inDefault.map((flag) => deep || flag === 1);
  const offsets = offsetsOf(row);
  const opens = row.passagePages[0] >= 0;
  return row.evidence.map((category, c) =>
    category.map((e, s) => {
      const values = row.cos[c][s].map((v, k) => v - offsets[k]);
      const best = Math.max(...values.filter((_, k) => read[k]));
      return [Number.isFinite(best) ? best : 0, e[1], e[2], opens ? values[0] : 0];
    }),
  );
}

/** A category's part of each kind: its weight x (criteria's mean + LABEL_WEIGHT x name's). */
function partsOf(kinds: number[][][]): number[][] {
  return kinds.map((category) =>
    WEIGHTS.map(
      (w, k) => w * (mean(category.slice(1).map((x) => x[k])) + LABEL_WEIGHT * category[0][k]),
    ),
  );
}

/** Per category, how much the rule takes off its layout part (0 for the shipped rule). */
function layoutCuts(row: Row, parts: number[][], rule: Rule): number[] {
  if (!Number.isFinite(rule.t) || rule.bound === 'none') return parts.map(() => 0);
  if (rule.unpagedOnly && !unpaged.has(`${row.set}/${row.id}`)) return parts.map(() => 0);
  if (rule.unpagedScale !== undefined)
    return parts.map((p) => (1 - rule.unpagedScale!) * p[LAYOUT]);
  const content = parts.map((p) => rule.content.reduce((sum, k) => sum + p[k], 0));
  const best = Math.max(...content);
  const close = content.flatMap((value, c) => (best - value <= rule.t ? [c] : []));
  const layouts = parts.map((p) => p[LAYOUT]);
  const bound =
    rule.bound === 'lowest'
      ? Math.min(...close.map((c) => layouts[c]))
      : mean(layouts.filter((_, c) => !close.includes(c)).concat(close.map((c) => layouts[c])));
  return layouts.map((value, c) => (close.includes(c) ? 0 : Math.max(0, value - bound)));
}

/** Per row: right by the default model, right by Deep Classify. */
function rightOf(row: Row, rule: Rule): [number, number] {
  const plainParts = partsOf(kindsOf(row, false));
  const plainCuts = layoutCuts(row, plainParts, rule);
  const plain = plainParts.map((p, c) => p.reduce((sum, v) => sum + v, 0) - plainCuts[c]);
  const wideKinds = kindsOf(row, true);
  const wideParts = partsOf(wideKinds);
  const cuts = layoutCuts(row, wideParts, rule);
  const wide = wideParts.map((p, c) => p.reduce((sum, v) => sum + v, 0) - cuts[c]);
  const strengths = wideKinds.map((category) =>
    category.map((x) => x.reduce((sum, v, k) => sum + WEIGHTS[k] * v, 0)),
  );
  const deep = secondPass(
    row,
    schemaOf(row),
    wide,
    (c, weights) => weightedStrength(strengths[c], weights) - cuts[c],
  );
  return [argmax(plain) === row.expected ? 1 : 0, argmax(deep) === row.expected ? 1 : 0];
}

const cells = cellsOf(rows);
const countCells = (results: readonly RowRights[]) => countRows(rows, results);

/** The family's rule chosen per fold on the other folds (ties to the first), scored on it. */
function crossValidated(family: readonly Rule[]): RowRights[] {
  const results = family.map((rule) => rows.map((row) => rightOf(row, rule)));
  const onChoice = (fold: number, r: number) =>
    console.log(`  fold ${fold}: chose t ${family[r].t}`);
  return countCells(heldOutRights(rows, results, { onChoice }));
}

const CONTENT = [SEMANTIC, LEXICAL, OPENING];
const SHIPPED: Rule = { t: Infinity, bound: 'none', content: CONTENT };
const GAPS = [0.01, 0.02, 0.03, 0.04, 0.06, 0.08, 0.12, 0.16];
const diffAt = process.argv.indexOf('--diff');
if (diffAt >= 0) {
  const t = Number(process.argv[diffAt + 1]);
  const rule: Rule = { t, bound: 'lowest', content: CONTENT, unpagedOnly: unpaged.size > 0 };
  for (const row of rows) {
    const before = rightOf(row, SHIPPED);
    const after = rightOf(row, rule);
    if (before[0] !== after[0] || before[1] !== after[1]) {
      console.log(
        `${row.set}/${row.variant} ${row.id}: default ${before[0]}->${after[0]}, accurate ${before[1]}->${after[1]}`,
      );
    }
  }
  process.exit(0);
}
const trials: [string, [number, number][]][] = [
  ['shipped', countCells(rows.map((row) => rightOf(row, SHIPPED)))],
];
for (const bound of ['lowest', 'mean'] as const) {
  for (const t of GAPS) {
    const rule: Rule = { t, bound, content: CONTENT };
    trials.push([
      `layout past t ${t} behind in content: ${bound}`,
      countCells(rows.map((row) => rightOf(row, rule))),
    ]);
  }
}
if (unpaged.size > 0) {
  for (const t of GAPS) {
    const rule: Rule = { t, bound: 'lowest', content: CONTENT, unpagedOnly: true };
    trials.push([
      `unpaged documents only, t ${t}`,
      countCells(rows.map((row) => rightOf(row, rule))),
    ]);
  }
}
if (unpaged.size > 0) {
  for (const scale of [0, 0.25, 0.5, 0.75]) {
    const rule: Rule = {
      t: 0,
      bound: 'lowest',
      content: CONTENT,
      unpagedOnly: true,
      unpagedScale: scale,
    };
    trials.push([
      `unpaged documents' layout x ${scale}`,
      countCells(rows.map((row) => rightOf(row, rule))),
    ]);
  }
}
for (const t of GAPS) {
  const rule: Rule = { t, bound: 'lowest', content: [SEMANTIC] };
  trials.push([
    `the same, semantic alone as content, t ${t}`,
    countCells(rows.map((row) => rightOf(row, rule))),
  ]);
}
printTrialTable(cells, trials, '\n');
console.log('\ncross-validated (t among shipped and the gaps):');
/**
 * The same, choosing on the other folds only among the rules that keep every cell of those
 * folds within `slack` documents of the shipped rule (the record's bar), then most rows right.
 */
function crossValidatedKeeping(family: readonly Rule[], slack: number): RowRights[] {
  const results = family.map((rule) => rows.map((row) => rightOf(row, rule)));
  const allowed = (r: number, training: (i: number) => boolean) => {
    const base = countRows(rows, results[0], training).flat();
    return countRows(rows, results[r], training)
      .flat()
      .every((count, j) => count >= base[j] - slack);
  };
  const onChoice = (fold: number, r: number) =>
    console.log(`  fold ${fold}: chose t ${family[r].t} (keeping cells within ${slack})`);
  return countCells(heldOutRights(rows, results, { allowed, onChoice }));
}

const family = [
  SHIPPED,
  ...GAPS.map((t): Rule => ({
    t,
    bound: 'lowest',
    content: CONTENT,
    unpagedOnly: unpaged.size > 0,
  })),
];
printTrialTable(cells, [
  ['shipped', trials[0][1]],
  ['CV: lowest, t', crossValidated(family)],
  ['CV keeping cells within 1: lowest, t', crossValidatedKeeping(family, 1)],
  ['CV keeping cells: lowest, t', crossValidatedKeeping(family, 0)],
]);
