/**
 * The error table of record 0537: for every dev document of a set that a model gets wrong
 * under the named schema variants, what the loader read (language, first characters, length,
 * pages, the form sentences), the winner, the runner-up and the right category with each
 * kind of evidence as weighted in the score (semantic, lexical, layout, opening), the kind
 * that puts the winner most ahead of the right category, and the passage of the winner's
 * best-matching statement. Runs the service's own reading (schemaEvidence), dev only.
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/error-table.js
 *      [--set unseen] [--variants criteria,fine] [--model default] [--all]
 */
import { ocrEffortOf } from '../../src/documents/classify/classify.task.js';
import {
  readDocument,
  schemaEvidence,
  warmUpClassifier,
} from '../../src/documents/classify/classify.js';
import type { ClassifyModel } from '../../src/documents/classify/classify.types.js';
import type { CategoryEvidence } from '../../src/documents/classify/evidence.js';
import { categoryScore, FUSION, strength } from '../../src/documents/classify/fusion.js';
import { separateNeighbours } from '../../src/documents/classify/near-neighbours.js';
import { chooseCategory } from '../../src/documents/classify/confidence.js';
import { pagesOf } from '../../test/support/classify-eval.js';
import { loadRealEvalSet, type RealEvalSetName } from '../../test/support/classify-eval-real.js';
import {
  SCHEMA_VARIANTS,
  schemaVariant,
  type SchemaVariantName,
} from '../../test/support/classify-eval-schemas.js';

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
};
const set = option('--set', 'unseen') as RealEvalSetName;
const model = option('--model', 'default') as ClassifyModel;
const variantNames = option('--variants', 'criteria,fine').split(',') as SchemaVariantName[];
const everyRow = process.argv.includes('--all');
const KINDS = ['semantic', 'lexical', 'layout', 'opening'] as const;
const LINE_BUDGET = 24;
const CHUNK_BUDGET = model === 'accurate' ? 160 : 32;

/** Each kind's weighted part of a category's score (mean of its criteria + the name's). */
function partsOf(category: CategoryEvidence): number[] {
  const criteria = category.criteria.length > 0 ? category.criteria : [category.label];
  const mean = (pick: (x: (typeof criteria)[number]) => number) =>
    criteria.reduce((sum, x) => sum + pick(x), 0) / criteria.length;
  const pick = [
    (x: (typeof criteria)[number]) => x.semantic,
    (x: (typeof criteria)[number]) => x.lexical,
    (x: (typeof criteria)[number]) => x.layout,
    (x: (typeof criteria)[number]) => x.opening ?? 0,
  ];
  const weight = [
    [FUSION.criterion.semantic, FUSION.label.semantic],
    [FUSION.criterion.lexical, FUSION.label.lexical],
    [FUSION.criterion.layout, FUSION.label.layout],
    [FUSION.criterion.opening, FUSION.label.opening],
  ];
  return pick.map((p, k) => weight[k][0] * mean(p) + weight[k][1] * p(category.label));
}

const f = (value: number) => (value >= 0 ? ' ' : '') + value.toFixed(3);
const oneLine = (text: string, length: number) =>
  text.replace(/\s+/gu, ' ').trim().slice(0, length);

warmUpClassifier();
const loaded = await loadRealEvalSet(['dev'], undefined, ocrEffortOf(model), set);
const variants = SCHEMA_VARIANTS.filter((name) => variantNames.includes(name)).map((name) =>
  schemaVariant(set, name),
);
const tally = new Map<string, number>();
for (const document of loaded.documents) {
  const pages = pagesOf(document);
  const texts = pages.map((page) => (typeof page === 'string' ? page : page.text));
  const sizes = pages.map((page) => (typeof page === 'string' ? undefined : page.size));
  const reading = readDocument(texts, undefined, CHUNK_BUDGET, LINE_BUDGET, sizes);
  const joined = texts.join('\n');
  for (const variant of variants) {
    const input = { pages, classificationSchema: variant.schema, model };
    const { schema, evidence } = schemaEvidence(input);
    const first = evidence.map((c) => ({
      score: categoryScore(c),
      criteria: c.criteria.map((x) => strength(x)),
    }));
    const scores = model === 'accurate' ? separateNeighbours(schema, evidence, first) : first;
    const names = schema.map((entry) => entry.category);
    const won = chooseCategory(scores, names);
    const expected = names.indexOf(variant.expected(document.category));
    if (won === expected && !everyRow) continue;
    const order = scores
      .map((s, i) => [s.score, i] as const)
      .sort((a, b) => b[0] - a[0])
      .map(([, i]) => i);
    const runnerUp = order.find((i) => i !== won) ?? won;
    const parts = evidence.map(partsOf);
    const gaps = parts[won].map((v, k) => v - parts[expected][k]);
    const most = gaps.reduce((best, g, k) => (g > gaps[best] ? k : best), 0);
    const key = `${variant.name} ${KINDS[most]}`;
    if (won !== expected) tally.set(key, (tally.get(key) ?? 0) + 1);
    const line = (i: number, tag: string) =>
      `    ${tag.padEnd(8)} ${names[i].padEnd(20)} score ${f(scores[i].score)}  ${parts[i]
        .map((v, k) => `${KINDS[k].slice(0, 3)} ${f(v)}`)
        .join('  ')}`;
    const bestStatement = (i: number) => {
      const all = [evidence[i].label, ...evidence[i].criteria];
      const at = all.reduce((b, x, k) => (x.semantic > all[b].semantic ? k : b), 0);
      const passage = reading.passages[all[at].passage];
      return `${at === 0 ? 'name' : `criterion ${at}`} ${all[at].semantic.toFixed(3)} <- "${oneLine(
        passage?.text ?? '',
        110,
      )}"`;
    };
    console.log(
      `${won === expected ? 'RIGHT' : 'MISS '} ${variant.name} ${document.file} [${
        document.language
      }] ${texts.length} p, ${joined.length} chars, rank of right ${order.indexOf(expected) + 1}/${
        names.length
      }, most ahead: ${KINDS[most]}`,
    );
    console.log(`    read: "${oneLine(joined, 300)}"`);
    console.log(`    form: ${reading.form.join(' ')}`);
    console.log(line(won, 'winner'));
    if (runnerUp !== expected) console.log(line(runnerUp, 'second'));
    console.log(line(expected, 'right'));
    console.log(`    winner's best: ${bestStatement(won)}`);
    console.log(`    right's best:  ${bestStatement(expected)}`);
  }
}
console.log('\nmisses by the kind most ahead:');
for (const [key, count] of [...tally].sort()) console.log(`  ${key}: ${count}`);
