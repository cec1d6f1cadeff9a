/**
 * Replays, on deep-dump.ts's output written with `--register` (record 0544), two general
 * changes to the evidence, both readings (the default model's passages and Deep Classify's,
 * which then gets the shipped second pass), an unpaged document's layout shortlisted as the
 * service does (form-shortlist.ts):
 * 1. how the text addresses its reader (register.ts) said as form sentences: a trait's
 *    sentence joins the document's form when its share of sentences is at or above the
 *    q-quantile of that share over the development documents (the same q for every trait;
 *    q chosen by cross-validation over documents); the layout evidence is then the best
 *    cosine over the form's sentences and these;
 * 2. the name sentence's template taken off: the category name's cosine with each passage
 *    less `share` x the passage's cosine with the template alone ("A document." or the
 *    sentence without a name), in its semantic evidence (and its opening).
 * `--diff <rule name>` lists the rows whose answer changes under that rule; `--phrasing <file>`
 * replays another phrasing of the register sentences (register-phrasing-dump.ts's output).
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/register-trial.js <dump.json>
 *      [--phrasing <file>] [--diff <rule>]
 */
import fs from 'node:fs';
import { FORM_SHORTLIST } from '../../src/documents/classify/form-shortlist.js';
import { FUSION, LABEL_WEIGHT } from '../../src/documents/classify/fusion.js';
import type { RegisterProfile } from '../../src/documents/classify/register.js';
import {
  argmax,
  cellsOf,
  mean,
  printTrialTable,
  secondPass,
  WEIGHTS,
  weightedStrength,
} from './deep-replay.js';
import { readDumpArgument, type DumpRow as Row } from './deep-dump.types.js';
import { countCells as countRows, heldOutRights, type RowRights } from './trial-folds.js';

const { schemas, rows, registerSentences } = readDumpArgument(
  'register-trial.js <deep-dump.json> [--diff <rule>]',
);
if (!registerSentences || rows.some((row) => !row.register || !row.templateCos)) {
  console.log('the dump was written without --register');
  process.exit(2);
}
const phrasingAt = process.argv.indexOf('--phrasing');
if (phrasingAt >= 0) {
  const phrasing = JSON.parse(fs.readFileSync(process.argv[phrasingAt + 1], 'utf8')) as {
    sentences: string[];
    cosines: Record<string, number[][][]>;
  };
  console.log(`phrasing: ${phrasing.sentences.join(' | ')}`);
  for (const [key, cosines] of Object.entries(phrasing.cosines))
    if (schemas[key]) schemas[key].registerCosines = cosines;
}
const schemaOf = (row: Row) => schemas[`${row.set}/${row.variant}`];
const LAYOUT = 2;
const TRAITS = ['second', 'firstSingular', 'firstPlural', 'questions'] as const;
type Trait = (typeof TRAITS)[number];
const MIN_SENTENCES = 5;

interface Rule {
  name: string;
  /** Quantile past which a trait is said (Infinity: never). */
  q: number;
  /** Which traits are said. */
  traits: readonly Trait[];
  /** Also the impersonal sentence when every person is at or under its quantile `impersonal`. */
  impersonal?: number;
  /** Template taken off the name's cosines: which template, what share, also its opening. */
  template?: { at: number; share: number; opening: boolean };
}

/** One value per document: its register (rows repeat a document once per schema variant). */
const documents = new Map<string, RegisterProfile>();
for (const row of rows) documents.set(`${row.set}/${row.id}`, row.register!);
const profiles = [...documents.values()].filter((p) => p.sentences >= MIN_SENTENCES);
function quantile(trait: Trait, q: number): number {
  const values = profiles.map((p) => p[trait]).sort((a, b) => a - b);
  return values[Math.min(values.length - 1, Math.floor(q * values.length))];
}
console.log(`${documents.size} documents, ${profiles.length} with ${MIN_SENTENCES}+ sentences`);
for (const trait of TRAITS) {
  const line = [0.25, 0.5, 0.7, 0.8, 0.9, 0.95].map(
    (q) => `q${q} ${quantile(trait, q).toFixed(3)}`,
  );
  console.log(`  ${trait}: ${line.join(', ')}`);
}

/** Indices (into registerSentences) of the sentences the rule says of a row's document. */
function registerSaid(row: Row, rule: Rule): number[] {
  const profile = row.register!;
  if (!Number.isFinite(rule.q) || profile.sentences < MIN_SENTENCES) return [];
  const said = TRAITS.flatMap((trait, j) =>
    rule.traits.includes(trait) && profile[trait] > 0 && profile[trait] >= quantile(trait, rule.q)
      ? [j]
      : [],
  );
  if (
    rule.impersonal !== undefined &&
    (['second', 'firstSingular', 'firstPlural'] as const).every(
      (trait) => profile[trait] <= quantile(trait, rule.impersonal!),
    )
  )
    said.push(TRAITS.length);
  return said;
}

/** Each passage's mean cosine over every statement of the request, halved (the centring). */
function offsetsOf(row: Row): number[] {
  const lines = row.cos.flat();
  return lines[0].map((_, k) => 0.5 * mean(lines.map((line) => line[k])));
}

/** Per category, per statement, the four kinds of evidence as the rule reads them. */
function kindsOf(row: Row, deep: boolean, rule: Rule): number[][][] {
  const read = row.inDefault.map((flag) => deep || flag === 1);
  const offsets = offsetsOf(row);
  const opens = row.passagePages[0] >= 0;
  const said = registerSaid(row, rule);
  const registerCos = schemaOf(row).registerCosines!;
  const template = rule.template;
  return row.evidence.map((category, c) =>
    category.map((e, s) => {
      const takeOff = template && s === 0 ? row.templateCos![template.at] : undefined;
      const values = row.cos[c][s].map(
        (v, k) => v - offsets[k] - (takeOff ? template!.share * takeOff[k] : 0),
      );
      const openingValues =
        takeOff && !template!.opening ? row.cos[c][s].map((v, k) => v - offsets[k]) : values;
      const best = Math.max(...values.filter((_, k) => read[k]));
      const layout = Math.max(...row.formCos[c][s], ...said.map((j) => registerCos[c][s][j]));
      return [Number.isFinite(best) ? best : 0, e[1], layout, opens ? openingValues[0] : 0];
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

/** The service's shortlist of an unpaged document's layout (form-shortlist.ts). */
function layoutCuts(row: Row, parts: number[][]): number[] {
  if (!row.unpaged) return parts.map(() => 0);
  const layouts = parts.map((p) => p[LAYOUT]);
  const content = parts.map((p) => p.reduce((sum, v) => sum + v, 0) - p[LAYOUT]);
  const best = Math.max(...content);
  const close = content.flatMap((value, c) => (best - value <= FORM_SHORTLIST ? [c] : []));
  const bound = Math.min(...close.map((c) => layouts[c]));
  return layouts.map((value, c) => (close.includes(c) ? 0 : Math.max(0, value - bound)));
}

/** Per row: right by the default model, right by Deep Classify. */
function rightOf(row: Row, rule: Rule): RowRights {
  const plainParts = partsOf(kindsOf(row, false, rule));
  const plainCuts = layoutCuts(row, plainParts);
  const plain = plainParts.map((p, c) => p.reduce((sum, v) => sum + v, 0) - plainCuts[c]);
  const wideKinds = kindsOf(row, true, rule);
  const wideParts = partsOf(wideKinds);
  const cuts = layoutCuts(row, wideParts);
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

void FUSION;
const SHIPPED: Rule = { name: 'shipped (replay)', q: Infinity, traits: [] };
const QS = [0.5, 0.7, 0.8, 0.9, 0.95];
const registerRules: Rule[] = QS.map((q) => ({ name: `register q ${q}`, q, traits: TRAITS }));
const traitRules: Rule[] = TRAITS.flatMap((trait) =>
  [0.5, 0.6, 0.7, 0.8, 0.9, 0.95].map((q): Rule => ({
    name: `${trait} only, q ${q}`,
    q,
    traits: [trait],
  })),
);
const impersonalRules: Rule[] = [0.8, 0.9].flatMap((q) =>
  [0.25, 0.5].map((low): Rule => ({
    name: `register q ${q}, impersonal <= q ${low}`,
    q,
    traits: TRAITS,
    impersonal: low,
  })),
);
const templateRules: Rule[] = [0, 1].flatMap((at) =>
  [0.25, 0.5, 0.75, 1].flatMap((share) =>
    [false, true].map((opening): Rule => ({
      name: `template ${at} x ${share}${opening ? ' (and opening)' : ''}`,
      q: Infinity,
      traits: [],
      template: { at, share, opening },
    })),
  ),
);
const all = [SHIPPED, ...registerRules, ...traitRules, ...impersonalRules, ...templateRules];
const diffAt = process.argv.indexOf('--diff');
if (diffAt >= 0) {
  const rule = all.find((r) => r.name === process.argv[diffAt + 1]);
  if (!rule) process.exit(2);
  for (const row of rows) {
    const before = rightOf(row, SHIPPED);
    const after = rightOf(row, rule);
    if (before[0] !== after[0] || before[1] !== after[1])
      console.log(
        `${row.set}/${row.variant} ${row.id}: default ${before[0]}->${after[0]}, accurate ${before[1]}->${after[1]} said ${registerSaid(row, rule).join(',')}`,
      );
  }
  process.exit(0);
}
const cells = cellsOf(rows);
const results = new Map(all.map((rule) => [rule, rows.map((row) => rightOf(row, rule))]));
printTrialTable(
  cells,
  all.map((rule) => [rule.name, countRows(rows, results.get(rule)!)]),
);

/** The family's rule chosen per fold on the other folds, keeping cells within `slack`. */
function crossValidated(family: readonly Rule[], slack: number): RowRights[] {
  const familyResults = family.map((rule) => results.get(rule)!);
  const allowed = (r: number, training: (i: number) => boolean) => {
    const base = countRows(rows, familyResults[0], training).flat();
    return countRows(rows, familyResults[r], training)
      .flat()
      .every((count, j) => count >= base[j] - slack);
  };
  const onChoice = (fold: number, r: number) =>
    console.log(`  fold ${fold}: ${family[r].name} (cells within ${slack})`);
  return countRows(rows, heldOutRights(rows, familyResults, { allowed, onChoice }));
}
console.log('\ncross-validated over documents:');
printTrialTable(cells, [
  ['shipped', countRows(rows, results.get(SHIPPED)!)],
  ['CV register q', crossValidated([SHIPPED, ...registerRules], Infinity)],
  ['CV register q, cells within 1', crossValidated([SHIPPED, ...registerRules], 1)],
  ['CV template', crossValidated([SHIPPED, ...templateRules], Infinity)],
  ...TRAITS.flatMap((trait): [string, RowRights[]][] => {
    const family = [SHIPPED, ...traitRules.filter((rule) => rule.traits[0] === trait)];
    const clear = family.filter((rule) => !(rule.q < 0.7));
    return [
      [`CV ${trait} only, q`, crossValidated(family, Infinity)],
      [`CV ${trait} only, q, cells within 1`, crossValidated(family, 1)],
      [`CV ${trait} only, q >= 0.7`, crossValidated(clear, Infinity)],
    ];
  }),
  ['CV template, cells within 1', crossValidated([SHIPPED, ...templateRules], 1)],
]);
