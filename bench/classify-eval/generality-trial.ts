/**
 * Replays, on deep-dump.ts's output written with `--extra`, readings of the evidence aimed at
 * categories the classifier never saw (record 0508): how single lines weigh against chunks
 * among the passages (a short line matches a concrete criterion on one word), the document
 * read as a whole (each statement's mean over the passages beside its best one), other
 * wordings of the category's name, and the category read as one description (name and
 * criteria in one text). Each rule is the same for every category and request. Both
 * readings, as hubness-trial.ts: the default model's passages and Deep Classify's, which then
 * gets the shipped second pass. Every family's parameter is also chosen by cross-validation
 * over documents (5 folds by document id, a document's rows in one fold): each fold is
 * scored with the parameter that gets most rows right on the other folds, and the held-out
 * counts are printed per cell. With length-dump.ts's output as a second argument, it also
 * replays unpaged documents described by their length (record 0465) and its combination with
 * single lines of running text discounted (record 0526).
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/generality-trial.js <dump.json>
 *      [lengths.json]
 */
import { LABEL_WEIGHT } from '../../src/documents/classify/fusion.js';
import fs from 'node:fs';
import {
  type DumpRow as Row,
  LENGTH_SENTENCES,
  type LengthDump,
  readDumpArgument,
} from './deep-dump.types.js';
import {
  argmax,
  cellsOf,
  mean,
  nearOf,
  printTrialTable,
  secondPass,
  WEIGHTS,
  weightedStrength,
} from './deep-replay.js';
import { countCells as countRows, heldOutRights, type RowRights } from './trial-folds.js';

const { schemas, rows } = readDumpArgument(
  'generality-trial.js <deep-dump.json written with --extra>',
);
if (!rows[0]?.passageLines) {
  console.log('the dump has no --extra fields');
  process.exit(2);
}
const schemaOf = (row: Row) => schemas[`${row.set}/${row.variant}`];

/** What a rule changes; every field defaults to the shipped reading. */
interface Rule {
  /** Added to a passage's centred cosine with every statement (by passage index). */
  passageOffset?: (row: Row, k: number) => number;
  /** Multiplies a passage's centred cosine with every statement (by passage index). */
  passageScale?: (row: Row, k: number) => number;
  /** The name's cosines with each passage instead of the dumped label sentence's. */
  labelCos?: (row: Row, c: number) => number[];
  /** Taken off a statement's semantic evidence (by category and statement). */
  statementOffset?: (row: Row, c: number, s: number) => number;
  /** Multiplies lexical evidence, by the number of categories of the request. */
  lexicalScale?: (categories: number) => number;
  /** The default model's near neighbours gain this times their share of its passages' votes. */
  defaultVotes?: number;
  /** A statement's layout evidence instead of the dumped one (by category and statement). */
  layout?: (row: Row, c: number, s: number) => number;
  /** A term added to each category's score, from the centred values and what was read. */
  extra?: (row: Row, c: number, values: number[][][], read: readonly boolean[]) => number;
}

/** Each passage's mean cosine over every statement of the request, halved (the centring). */
function offsetsOf(row: Row): number[] {
  const lines = row.cos.flat();
  return lines[0].map((_, k) => 0.5 * mean(lines.map((line) => line[k])));
}

function scoresOf(row: Row, deep: boolean, rule: Rule) {
  const read = row.inDefault.map((flag) => deep || flag === 1);
  const offsets = offsetsOf(row);
  const shift = (k: number) => offsets[k] - (rule.passageOffset?.(row, k) ?? 0);
  const values = row.cos.map((category, c) =>
    category.map((line, s) =>
      (s === 0 && rule.labelCos ? rule.labelCos(row, c) : line).map(
        (v, k) => (v - shift(k)) * (rule.passageScale?.(row, k) ?? 1),
      ),
    ),
  );
  const opens = row.passagePages[0] >= 0;
  const strengths = row.evidence.map((category, c) =>
    category.map((e, s) => {
      const best = Math.max(...values[c][s].filter((_, k) => read[k]));
      const off = rule.statementOffset?.(row, c, s) ?? 0;
      const kinds = [
        Number.isFinite(best) ? best - off : 0,
        e[1] * (rule.lexicalScale?.(row.evidence.length) ?? 1),
        rule.layout ? rule.layout(row, c, s) : e[2],
        opens ? values[c][s][0] - off : 0,
      ];
      return kinds.reduce((sum, value, k) => sum + WEIGHTS[k] * value, 0);
    }),
  );
  const scores = strengths.map(
    (category, c) =>
      mean(category.slice(1)) +
      LABEL_WEIGHT * category[0] +
      (rule.extra?.(row, c, values, read) ?? 0),
  );
  return { strengths, scores };
}

/** Each category's share of the votes of the passages `read` (evidence.ts passageVotes). */
function votesOf(row: Row, read: readonly boolean[]): number[] {
  const votes = new Array<number>(row.cos.length).fill(0);
  const voters = read.flatMap((flag, k) => (flag ? [k] : []));
  for (const k of voters) {
    const nearness = row.cos.map(
      ([label, ...criteria]) => mean(criteria.map((line) => line[k])) + LABEL_WEIGHT * label[k],
    );
    const best = Math.max(...nearness);
    const exps = nearness.map((value) => Math.exp((value - best) / 0.03));
    const sum = exps.reduce((total, value) => total + value, 0);
    exps.forEach((value, c) => (votes[c] += value / sum / voters.length));
  }
  return votes;
}

function defaultScores(row: Row, rule: Rule): number[] {
  const { scores } = scoresOf(row, false, rule);
  if (!rule.defaultVotes) return scores;
  const near = new Set(nearOf(scores));
  const votes = votesOf(
    row,
    row.inDefault.map((flag) => flag === 1),
  );
  return scores.map((score, c) => (near.has(c) ? score + rule.defaultVotes! * votes[c] : score));
}

/** Per row: right by the default model, right by Deep Classify. */
function rightOf(row: Row, rule: Rule): [number, number] {
  const plain = argmax(defaultScores(row, rule)) === row.expected ? 1 : 0;
  const wide = scoresOf(row, true, rule);
  const deep = secondPass(row, schemaOf(row), wide.scores, (c, weights) =>
    weightedStrength(wide.strengths[c], weights),
  );
  return [plain, argmax(deep) === row.expected ? 1 : 0];
}

const cells = cellsOf(rows);
const countCells = (results: readonly RowRights[], only?: (i: number) => boolean) =>
  countRows(rows, results, only);

/**
 * A family's parameter chosen per fold on the other folds (most rows right, both models,
 * ties to the first, which is the shipped value when the family contains it), scored on the
 * fold.
 */
function crossValidated(family: readonly Rule[]): RowRights[] {
  const results = family.map((rule) => rows.map((row) => rightOf(row, rule)));
  return countCells(heldOutRights(rows, results));
}

const trials: [string, [number, number][]][] = [];
const add = (name: string, rule: Rule) =>
  trials.push([name, countCells(rows.map((row) => rightOf(row, rule)))]);
const families: [string, Rule[]][] = [];

add('shipped', {});

const lineDiscounts = [0, 0.02, 0.05, 0.1, 1];
for (const d of lineDiscounts.slice(1)) {
  add(`single lines less ${d}`, { passageOffset: (row, k) => -d * (row.passageLines?.[k] ?? 0) });
}
families.push([
  'single lines less d (0 / 0.02 / 0.05 / 0.1 / 1)',
  lineDiscounts.map((d) => ({ passageOffset: (row, k) => -d * (row.passageLines?.[k] ?? 0) })),
]);

/** Shorter passages' centred cosines shrunk by words / (words + w0). */
for (const w0 of [4, 8, 16]) {
  add(`passages shrunk by words / (words + ${w0})`, {
    passageScale: (row, k) => {
      const words = row.passageWords?.[k] ?? 24;
      return words / (words + w0);
    },
  });
}

const wholeWeights = [0, 0.25, 0.5, 1, 2];
const wholeRule = (w: number): Rule => ({
  extra: (_row, c, values, read) => {
    const statementMeans = values[c].map((line) => mean(line.filter((_, k) => read[k])));
    return w * (mean(statementMeans.slice(1)) + LABEL_WEIGHT * statementMeans[0]);
  },
});
for (const w of wholeWeights.slice(1)) add(`document read whole: + ${w} x mean`, wholeRule(w));
families.push(['document read whole, w (0 / 0.25 / 0.5 / 1 / 2)', wholeWeights.map(wholeRule)]);

const labelNames = ['bare name', '"Document type: name."', '"This is a name."'];
labelNames.forEach((name, t) =>
  add(`name as ${name}`, { labelCos: (row, c) => row.labelCos?.[c][t] ?? row.cos[c][0] }),
);

const descriptionWeights = [0, 0.25, 0.5, 1];
const descriptionRule = (w: number): Rule => ({
  extra: (row, c, _values, read) => {
    const offsets = offsetsOf(row);
    const line = (row.descriptionCos?.[c] ?? []).map((v, k) => v - offsets[k]);
    const best = Math.max(...line.filter((_, k) => read[k]));
    return Number.isFinite(best) ? w * best : 0;
  },
});
for (const w of descriptionWeights.slice(1)) {
  add(`category read as one description: + ${w} x best`, descriptionRule(w));
}
families.push(['one description, w (0 / 0.25 / 0.5 / 1)', descriptionWeights.map(descriptionRule)]);

/** Whether layout.ts describes the document with `sentence` (its form). */
const saysForm = (row: Row, sentence: string) => row.form.includes(sentence);
const RUNNING = 'Long paragraphs of running text in full sentences.';
const DENSE = 'Pages full of dense text.';
const FORM_LIKE = [
  'Labelled fields with a value after each label.',
  'Mostly short lines of a few words each.',
  'Tables with rows and columns of values.',
];
for (const [label, test] of [
  ['running text', (row: Row) => saysForm(row, RUNNING)],
  ['dense text', (row: Row) => saysForm(row, DENSE)],
  ['running or dense text', (row: Row) => saysForm(row, RUNNING) || saysForm(row, DENSE)],
  [
    'documents of 16 chunks or more',
    (row: Row) =>
      (row.passageLines ?? []).filter((flag, k) => flag === 0 && row.inDefault[k]).length >= 16,
  ],
  [
    'documents of 32 chunks or more',
    (row: Row) =>
      (row.passageLines ?? []).filter((flag, k) => flag === 0 && row.inDefault[k]).length >= 32,
  ],
  [
    'pages neither of fields, short lines nor tables',
    (row: Row) => !FORM_LIKE.some((sentence) => saysForm(row, sentence)),
  ],
] as const) {
  const rule = (d: number): Rule => ({
    passageOffset: (row, k) => (test(row) ? -d * (row.passageLines?.[k] ?? 0) : 0),
  });
  for (const d of lineDiscounts.slice(1)) add(`single lines of ${label} less ${d}`, rule(d));
  families.push([`single lines of ${label} less d`, lineDiscounts.map(rule)]);
}

/** A passage's place in its kind (chunks, single lines) of the reading, 0 first .. 1 last. */
function placeOf(row: Row, k: number): number {
  const lines = row.passageLines ?? [];
  const kind = lines[k] ?? 0;
  const same = lines.flatMap((flag, i) => (flag === kind ? [i] : []));
  return same.length > 1 ? same.indexOf(k) / (same.length - 1) : 0;
}
const placeDiscounts = [0, 0.02, 0.05, 0.1];
const placeRule = (d: number): Rule => ({ passageOffset: (row, k) => -d * placeOf(row, k) });
for (const d of placeDiscounts.slice(1)) add(`passages further in less ${d} x place`, placeRule(d));
families.push([
  'passages further in less d x place (0 / 0.02 / 0.05 / 0.1)',
  placeDiscounts.map(placeRule),
]);

const backgroundShares = [0, 0.25, 0.5, 1];
const backgroundRule = (beta: number): Rule => ({
  statementOffset: (row, c, s) => beta * mean(schemaOf(row).inventoryCosines[c][s]),
});
for (const beta of backgroundShares.slice(1)) {
  add(`statements less ${beta} x their mean over the form inventory`, backgroundRule(beta));
}
families.push([
  'statements less b x inventory mean (0 / 0.25 / 0.5 / 1)',
  backgroundShares.map(backgroundRule),
]);

const lexicalPowers = [0, 0.25, 0.5, 1];
const lexicalRule = (gamma: number): Rule => ({
  lexicalScale: (n) => Math.min(1, (8 / n) ** gamma),
});
for (const gamma of lexicalPowers.slice(1)) {
  add(`lexical x min(1, (8 / categories) ^ ${gamma})`, lexicalRule(gamma));
}
families.push([
  'lexical x min(1, (8 / n) ^ g) (0 / 0.25 / 0.5 / 1)',
  lexicalPowers.map(lexicalRule),
]);

const voteWeights = [0, 0.1, 0.2, 0.3];
for (const w of voteWeights.slice(1))
  add(`default model's near neighbours: + ${w} x votes`, {
    defaultVotes: w,
  });
families.push([
  "default's votes, w (0 / 0.1 / 0.2 / 0.3)",
  voteWeights.map((w) => ({ defaultVotes: w })),
]);

const lengthFile = process.argv[3];
if (lengthFile) {
  const lengths = JSON.parse(fs.readFileSync(lengthFile, 'utf8')) as LengthDump;
  const unpagedLayout = (row: Row, c: number, s: number): number => {
    const words = lengths.unpaged[`${row.set}/${row.id}`];
    const others = row.formCos[c][s].slice(1);
    if (words === undefined) return Math.max(...row.formCos[c][s]);
    const at = LENGTH_SENTENCES.findIndex(([most]) => words < most);
    return Math.max(lengths.cosines[`${row.set}/${row.variant}`][c][s][at], ...others);
  };
  const runningLines = (d: number): Rule => ({
    passageOffset: (row, k) => (saysForm(row, RUNNING) ? -d * (row.passageLines?.[k] ?? 0) : 0),
  });
  add('unpaged described by length', { layout: unpagedLayout });
  /** An unpaged document's form without a sentence of its pages (0 when nothing is left). */
  const pagelessLayout = (row: Row, c: number, s: number): number => {
    if (lengths.unpaged[`${row.set}/${row.id}`] === undefined)
      return Math.max(...row.formCos[c][s]);
    const others = row.formCos[c][s].slice(1);
    return others.length > 0 ? Math.max(...others) : 0;
  };
  add('unpaged without a page sentence', { layout: pagelessLayout });
  for (const d of lineDiscounts.slice(1)) {
    add(`unpaged without a page sentence + single lines of running text less ${d}`, {
      ...runningLines(d),
      layout: pagelessLayout,
    });
  }
  families.push(['unpaged without a page sentence (off / on)', [{}, { layout: pagelessLayout }]]);
  for (const d of lineDiscounts.slice(1)) {
    add(`unpaged by length + single lines of running text less ${d}`, {
      ...runningLines(d),
      layout: unpagedLayout,
    });
  }
  families.push(['unpaged by length (off / on)', [{}, { layout: unpagedLayout }]]);
  families.push([
    'unpaged by length (off / on) x running-text lines less d',
    [false, true].flatMap((on) =>
      lineDiscounts.map((d) => ({ ...runningLines(d), ...(on ? { layout: unpagedLayout } : {}) })),
    ),
  ]);
}

printTrialTable(cells, trials, '\n');
printTrialTable(
  cells,
  [
    ['shipped', trials[0][1]],
    ...families.map(([name, family]) => [`CV: ${name}`, crossValidated(family)] as const),
  ],
  '\nParameters chosen on the other folds (held-out counts):\n',
);
