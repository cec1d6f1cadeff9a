/**
 * Replays, on deep-dump.ts's output and line-context-dump.ts's, single lines judged with their
 * context (record 0537): a line read apart from the chunks (a form's field, a heading, a
 * fragment of a sentence) matches a criterion on one or two words, and one such line can
 * carry a category the rest of the document does not read as. Each line's centred cosine
 * with every statement is blended with the cosine of the read chunk that holds it, at share
 * a (`blend`), or capped at that chunk's cosine plus m (`cap`); a line whose chunk is not
 * read keeps its cosine. The same for every category and request. Both readings, as
 * generality-trial.ts; each family's parameter is also chosen by cross-validation over
 * documents (5 folds by document id). `--diff <family> <value>` lists the changed rows.
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/line-context-trial.js
 *      <dump.json> <contexts.json> [--diff blend|cap value]
 */
import fs from 'node:fs';
import { LABEL_WEIGHT } from '../../src/documents/classify/fusion.js';
import { type DumpRow as Row, readDump } from './deep-dump.types.js';
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

const [file, contextFile] = process.argv.slice(2);
if (!file || !contextFile) {
  console.log('usage: line-context-trial.js <deep-dump.json> <contexts.json> [--diff kind v]');
  process.exit(2);
}
const { schemas, rows } = readDump(file);
const contexts = JSON.parse(fs.readFileSync(contextFile, 'utf8')) as Record<string, number[]>;
const schemaOf = (row: Row) => schemas[`${row.set}/${row.variant}`];

type Kind = 'blend' | 'cap';
interface Rule {
  kind: Kind;
  value: number;
}
const SHIPPED: Rule = { kind: 'blend', value: 0 };

function offsetsOf(row: Row): number[] {
  const lines = row.cos.flat();
  return lines[0].map((_, k) => 0.5 * mean(lines.map((line) => line[k])));
}

/** A statement's centred cosines with the passages, each line judged with its chunk. */
function withContext(values: number[], context: readonly number[], rule: Rule): number[] {
  return values.map((v, k) => {
    const at = context[k] ?? -1;
    if (at < 0) return v;
    return rule.kind === 'blend'
      ? (1 - rule.value) * v + rule.value * values[at]
      : Math.min(v, values[at] + rule.value);
  });
}

function strengthsOf(row: Row, deep: boolean, rule: Rule): number[][] {
  const read = row.inDefault.map((flag) => deep || flag === 1);
  const offsets = offsetsOf(row);
  const context = contexts[`${row.set}/${row.id}`] ?? [];
  // A line whose chunk the default model does not read keeps its cosine there.
  const readContext = context.map((at) => (at >= 0 && read[at] ? at : -1));
  const opens = row.passagePages[0] >= 0;
  return row.evidence.map((category, c) =>
    category.map((e, s) => {
      const centred = row.cos[c][s].map((v, k) => v - offsets[k]);
      const values = withContext(centred, readContext, rule);
      const best = Math.max(...values.filter((_, k) => read[k]));
      const kinds = [Number.isFinite(best) ? best : 0, e[1], e[2], opens ? values[0] : 0];
      return kinds.reduce((sum, v, k) => sum + WEIGHTS[k] * v, 0);
    }),
  );
}

const scoreOf = (category: number[]) => mean(category.slice(1)) + LABEL_WEIGHT * category[0];

function rightOf(row: Row, rule: Rule): [number, number] {
  const plain = strengthsOf(row, false, rule).map(scoreOf);
  const strengths = strengthsOf(row, true, rule);
  const deep = secondPass(row, schemaOf(row), strengths.map(scoreOf), (c, weights) =>
    weightedStrength(strengths[c], weights),
  );
  return [argmax(plain) === row.expected ? 1 : 0, argmax(deep) === row.expected ? 1 : 0];
}

const cells = cellsOf(rows);
const countCells = (results: readonly RowRights[]) => countRows(rows, results);

/** The family's rule chosen per fold on the other folds (ties to the first), scored on it. */
function crossValidated(family: readonly Rule[]): RowRights[] {
  const results = family.map((rule) => rows.map((row) => rightOf(row, rule)));
  const onChoice = (fold: number, r: number) =>
    console.log(`  fold ${fold}: chose ${family[r].kind} ${family[r].value}`);
  return countCells(heldOutRights(rows, results, { onChoice }));
}

const diffAt = process.argv.indexOf('--diff');
if (diffAt >= 0) {
  const rule: Rule = {
    kind: process.argv[diffAt + 1] as Kind,
    value: Number(process.argv[diffAt + 2]),
  };
  for (const row of rows) {
    const [a, b] = [rightOf(row, SHIPPED), rightOf(row, rule)];
    if (a[0] !== b[0] || a[1] !== b[1]) {
      console.log(
        `${row.set}/${row.variant} ${row.id}: default ${a[0]}->${b[0]}, accurate ${a[1]}->${b[1]}`,
      );
    }
  }
  process.exit(0);
}
const lines = rows.filter((row) => (contexts[`${row.set}/${row.id}`] ?? []).some((at) => at >= 0));
console.log(`rows with a line whose chunk is read: ${lines.length} of ${rows.length}`);
const BLENDS = [0.25, 0.5, 0.75, 1];
const CAPS = [0, 0.05, 0.1, 0.2];
const blends = BLENDS.map((value): Rule => ({ kind: 'blend', value }));
const caps = CAPS.map((value): Rule => ({ kind: 'cap', value }));
const trials: [string, [number, number][]][] = [
  ['shipped', countCells(rows.map((row) => rightOf(row, SHIPPED)))],
  ...[...blends, ...caps].map(
    (rule) =>
      [
        `${rule.kind === 'blend' ? 'line blended with its chunk at' : 'line capped at its chunk +'} ${rule.value}`,
        countCells(rows.map((row) => rightOf(row, rule))),
      ] as [string, [number, number][]],
  ),
];
printTrialTable(cells, trials, '\n');
printTrialTable(cells, [
  ['shipped', trials[0][1]],
  ['CV: blend a (0 / 0.25 / 0.5 / 0.75 / 1)', crossValidated([SHIPPED, ...blends])],
  ['CV: cap m (none / 0 / 0.05 / 0.1 / 0.2)', crossValidated([SHIPPED, ...caps])],
]);
