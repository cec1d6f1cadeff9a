/**
 * Trials of Deep Classify reading an image page both ways (record 0511): its thorough OCR
 * (the better of two thresholdings) and the default model's single reading, scored together.
 * The two readings come from the evaluation cache (`.json` and `.thorough.json` of each
 * document), so nothing is read again. Only documents whose two readings differ can change;
 * for those it prints each rule's answer beside the default model's and shipped Deep
 * Classify's, and per cell the documents right of every rule, then the blend's share
 * cross-validated over documents. With a file argument it also writes each rule's outcome
 * per document and cell there (JSON).
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/ocr-pair-trial.js [out.json]
 */
import fs from 'node:fs';
import {
  classify,
  schemaEvidence,
  scoreCategories,
  warmUpClassifier,
} from '../../src/documents/classify/classify.js';
import { categoryConfidences, chooseCategory } from '../../src/documents/classify/confidence.js';
import type {
  CategoryScore,
  ClassificationCategory,
  PageText,
} from '../../src/documents/classify/classify.types.js';
import type { CategoryEvidence, CriterionEvidence } from '../../src/documents/classify/evidence.js';
import { categoryScore, strength } from '../../src/documents/classify/fusion.js';
import { separateNeighbours } from '../../src/documents/classify/near-neighbours.js';
import { sentenceEncoder } from '../../src/documents/encoder/sentence-encoder.js';
import { pagesOf, type EvalDocument } from '../../test/support/classify-eval.js';
import { loadRealEvalSet, REAL_EVAL_SETS } from '../../test/support/classify-eval-real.js';
import { SCHEMA_VARIANTS, schemaVariant } from '../../test/support/classify-eval-schemas.js';
import { foldOf } from './trial-folds.js';

warmUpClassifier();
sentenceEncoder()?.rememberUpTo(200_000);

type Rule = (
  thorough: PageText[],
  fast: PageText[],
  schema: ClassificationCategory[],
) => CategoryScore[];

/** Deep Classify's scores of one reading alone, as the service scores it (no-text ties too). */
function accurateScores(pages: PageText[], schema: ClassificationCategory[]): CategoryScore[] {
  return scoreCategories({
    pages,
    classificationSchema: schema,
    model: 'accurate',
  });
}

/** Evidence rules keep the service's rule for a reading with no text: every category tied. */
function textOf(pages: PageText[]): boolean {
  return pages.some((page) => /[\p{L}\p{N}]/u.test(typeof page === 'string' ? page : page.text));
}

function scoresOf(schema: ClassificationCategory[], evidence: CategoryEvidence[]): CategoryScore[] {
  const scores = evidence.map((category) => ({
    score: categoryScore(category),
    criteria: category.criteria.map((criterion) => strength(criterion)),
  }));
  return separateNeighbours(schema, evidence, scores);
}

const meanOf = (a: number, b: number) => (a + b) / 2;
function meanCriterion(a: CriterionEvidence, b: CriterionEvidence): CriterionEvidence {
  return {
    semantic: meanOf(a.semantic, b.semantic),
    passage: a.passage,
    lexical: meanOf(a.lexical, b.lexical),
    layout: meanOf(a.layout, b.layout),
    ...(a.opening !== undefined ? { opening: meanOf(a.opening, b.opening ?? 0) } : {}),
  };
}
function maxCriterion(a: CriterionEvidence, b: CriterionEvidence): CriterionEvidence {
  return {
    semantic: Math.max(a.semantic, b.semantic),
    passage: a.passage,
    lexical: Math.max(a.lexical, b.lexical),
    layout: Math.max(a.layout, b.layout),
    ...(a.opening !== undefined ? { opening: Math.max(a.opening, b.opening ?? 0) } : {}),
  };
}
function minCriterion(a: CriterionEvidence, b: CriterionEvidence): CriterionEvidence {
  return {
    semantic: Math.min(a.semantic, b.semantic),
    passage: a.passage,
    lexical: Math.min(a.lexical, b.lexical),
    layout: Math.min(a.layout, b.layout),
    ...(a.opening !== undefined ? { opening: Math.min(a.opening, b.opening ?? 0) } : {}),
  };
}
/** The best score's lead over the second. */
function margin(scores: readonly CategoryScore[]): number {
  const sorted = scores.map((s) => s.score).sort((x, y) => y - x);
  return sorted.length < 2 ? Infinity : sorted[0] - sorted[1];
}
function combineEvidence(
  a: CategoryEvidence[],
  b: CategoryEvidence[],
  criterion: (x: CriterionEvidence, y: CriterionEvidence) => CriterionEvidence,
  share: (x: number, y: number) => number,
): CategoryEvidence[] {
  return a.map((category, c) => ({
    label: criterion(category.label, b[c].label),
    criteria: category.criteria.map((x, i) => criterion(x, b[c].criteria[i])),
    ...(category.votes !== undefined ? { votes: share(category.votes, b[c].votes ?? 0) } : {}),
    ...(category.pageVotes !== undefined
      ? { pageVotes: share(category.pageVotes, b[c].pageVotes ?? 0) }
      : {}),
  }));
}
const evidenceRule =
  (criterion: typeof meanCriterion, share: (x: number, y: number) => number): Rule =>
  (thorough, fast, schema) => {
    if (!textOf(thorough) || !textOf(fast)) return RULES['score mean'](thorough, fast, schema);
    const a = schemaEvidence({
      pages: thorough,
      classificationSchema: schema,
      model: 'accurate',
    });
    const b = schemaEvidence({
      pages: fast,
      classificationSchema: schema,
      model: 'accurate',
    });
    return scoresOf(schema, combineEvidence(a.evidence, b.evidence, criterion, share));
  };

const RULES: Record<string, Rule> = {
  'score mean': (thorough, fast, schema) => {
    const a = accurateScores(thorough, schema);
    const b = accurateScores(fast, schema);
    return a.map((x, c) => ({
      score: meanOf(x.score, b[c].score),
      criteria: x.criteria.map((v, i) => meanOf(v, b[c].criteria[i])),
    }));
  },
  'score max': (thorough, fast, schema) => {
    const a = accurateScores(thorough, schema);
    const b = accurateScores(fast, schema);
    return a.map((x, c) => ({
      score: Math.max(x.score, b[c].score),
      criteria: x.criteria.map((v, i) => Math.max(v, b[c].criteria[i])),
    }));
  },
  'evidence mean': evidenceRule(meanCriterion, meanOf),
  'evidence max': evidenceRule(maxCriterion, meanOf),
  'one pool (texts joined)': (thorough, fast, schema) =>
    accurateScores(
      thorough.map((page, i) => {
        const t = typeof page === 'string' ? { text: page } : page;
        const f = fast[i];
        const other = typeof f === 'string' ? f : f.text;
        return other === t.text ? t : { ...t, text: `${t.text}\n\n${other}` };
      }),
      schema,
    ),
  'fast text only': (_thorough, fast, schema) => accurateScores(fast, schema),
  'score min': (thorough, fast, schema) => {
    const a = accurateScores(thorough, schema);
    const b = accurateScores(fast, schema);
    return a.map((x, c) => ({
      score: Math.min(x.score, b[c].score),
      criteria: x.criteria.map((v, i) => Math.min(v, b[c].criteria[i])),
    }));
  },
  'evidence min': evidenceRule(minCriterion, meanOf),
  'surer reading (margin)': (thorough, fast, schema) => {
    const a = accurateScores(thorough, schema);
    const b = accurateScores(fast, schema);
    return margin(b) > margin(a) ? b : a;
  },
  'surer reading (confidence)': (thorough, fast, schema) => {
    const a = accurateScores(thorough, schema);
    const b = accurateScores(fast, schema);
    return Math.max(...categoryConfidences(b)) > Math.max(...categoryConfidences(a)) ? b : a;
  },
};

/** The default reading's share `w` of each score (and each criterion strength). */
const scoreShare =
  (w: number): Rule =>
  (thorough, fast, schema) => {
    const a = accurateScores(thorough, schema);
    const b = accurateScores(fast, schema);
    return a.map((x, c) => ({
      score: (1 - w) * x.score + w * b[c].score,
      criteria: x.criteria.map((v, i) => (1 - w) * v + w * b[c].criteria[i]),
    }));
  };
const share = (w: number) => (x: number, y: number) => (1 - w) * x + w * y;
/** The default reading's share `w` of each piece of evidence. */
const evidenceShare = (w: number): Rule =>
  evidenceRule((a, b) => {
    const f = share(w);
    return {
      semantic: f(a.semantic, b.semantic),
      passage: a.passage,
      lexical: f(a.lexical, b.lexical),
      layout: f(a.layout, b.layout),
      ...(a.opening !== undefined ? { opening: f(a.opening, b.opening ?? 0) } : {}),
    };
  }, share(w));
for (const w of [0.25, 0.4, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9]) {
  RULES[`score share ${w}`] = scoreShare(w);
  RULES[`evidence share ${w}`] = evidenceShare(w);
}

const ruleNames = ['default', 'accurate', ...Object.keys(RULES)];
const totals: Record<string, number[]> = Object.fromEntries(ruleNames.map((n) => [n, []]));
const cellNames: string[] = [];
/** Per document whose readings differ and cell: whether each rule is right (--json). */
const outcomes: { id: string; cell: string; ok: Record<string, boolean> }[] = [];
for (const set of REAL_EVAL_SETS) {
  const fast = await loadRealEvalSet(['dev'], undefined, 'fast', set);
  const thorough = await loadRealEvalSet(['dev'], undefined, 'thorough', set);
  const byId = new Map<string, EvalDocument>(fast.documents.map((d) => [d.file, d]));
  for (const name of SCHEMA_VARIANTS) {
    const variant = schemaVariant(set, name);
    const names = variant.schema.map((entry) => entry.category);
    const right: Record<string, number> = Object.fromEntries(ruleNames.map((n) => [n, 0]));
    const lines: string[] = [];
    for (const doc of thorough.documents) {
      const expected = variant.expected(doc.category);
      const fastDoc = byId.get(doc.file);
      if (!fastDoc) continue;
      const answer = (model: 'default' | 'accurate', d: EvalDocument) =>
        classify({ pages: pagesOf(d), classificationSchema: variant.schema, model }).result
          .category;
      const got: Record<string, string | null> = {
        default: answer('default', fastDoc),
        accurate: answer('accurate', doc),
      };
      const differs = doc.pages.some((text, i) => text !== fastDoc.pages[i]);
      for (const rule of Object.keys(RULES)) {
        if (!differs) {
          got[rule] = got.accurate;
          continue;
        }
        const scores = RULES[rule](pagesOf(doc), pagesOf(fastDoc), variant.schema);
        const best = chooseCategory(scores, names);
        got[rule] = best >= 0 ? names[best] : null;
      }
      for (const n of ruleNames) if (got[n] === expected) right[n]++;
      if (differs) {
        const ok = Object.fromEntries(ruleNames.map((n) => [n, got[n] === expected]));
        outcomes.push({ id: doc.file, cell: `${set} ${name}`, ok });
      }
      if (differs) {
        lines.push(
          `  ${doc.file} (${expected}): ` +
            ruleNames.map((n) => `${n}=${got[n] === expected ? 'ok' : got[n]}`).join(', '),
        );
      }
    }
    cellNames.push(`${set} ${name}`);
    for (const n of ruleNames) totals[n].push(right[n]);
    if (lines.length > 0) console.log(`${set} ${name}:\n${lines.join('\n')}`);
  }
}
console.log(`\nrule | ${cellNames.join(' | ')} | total`);
for (const n of ruleNames) {
  const sum = totals[n].reduce((s, v) => s + v, 0);
  const delta = totals[n].map((v, i) => v - totals.default[i]);
  console.log(`${n} | ${totals[n].join(' | ')} | ${sum} | vs default ${delta.join(' ')}`);
}
const FOLDS = 5;
/**
 * The default reading's share of the blended scores chosen by cross-validation over
 * documents: on four folds the share with the most answers right (nearest an even blend
 * among equals), scored on the fifth. Shares 0 and 1 are the kept and the default reading.
 */
const shares = new Map<string, number>([
  ['accurate', 0],
  ['fast text only', 1],
  ...Object.keys(RULES)
    .filter((name) => name.startsWith('score share '))
    .map((name): [string, number] => [name, Number(name.slice('score share '.length))]),
]);
const cv = cellNames.map(
  (_, k) =>
    totals.accurate[k] - outcomes.filter((o) => o.cell === cellNames[k] && o.ok.accurate).length,
);
const chosen: number[] = [];
for (let fold = 0; fold < FOLDS; fold++) {
  const train = outcomes.filter((o) => foldOf(o.id) !== fold);
  const right = (name: string) => train.filter((o) => o.ok[name]).length;
  const [best] = [...shares.keys()].sort(
    (a, b) =>
      right(b) - right(a) ||
      Math.abs((shares.get(a) ?? 0) - 0.5) - Math.abs((shares.get(b) ?? 0) - 0.5),
  );
  chosen.push(shares.get(best) ?? 0);
  for (const o of outcomes)
    if (foldOf(o.id) === fold && o.ok[best]) cv[cellNames.indexOf(o.cell)]++;
}
console.log(
  `score share cross-validated (chosen ${chosen.join(', ')}) | ${cv.join(' | ')} | ` +
    `${cv.reduce((sum, v) => sum + v, 0)} | vs default ${cv.map((v, k) => v - totals.default[k]).join(' ')}`,
);

const json = process.argv[2];
if (json) fs.writeFileSync(json, JSON.stringify({ cells: cellNames, totals, outcomes }));
