/**
 * Trials of lexical weights by a word's rarity in the language at large (record 0483):
 * documents right per set and schema variant, default / Deep Classify, for each form of the
 * rarity, every other evidence as the service gathers it. Each document is read once per
 * model and variant; only the lexical evidence is computed again per form, and the scores,
 * Deep Classify's second pass and the choice are the service's own functions.
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/rarity-trial.js
 *      [--only business/default] [--diff <form index>]
 */
import { ocrEffortOf } from '../../src/documents/classify/classify.task.js';
import { schemaEvidence, warmUpClassifier } from '../../src/documents/classify/classify.js';
import type { PageText } from '../../src/documents/classify/classify.types.js';
import { chooseCategory } from '../../src/documents/classify/confidence.js';
import {
  DEEP_DOCUMENT_READING,
  DOCUMENT_READING,
  documentBag,
  keysOf,
  labelText,
  lexicalFactor,
  type DocumentReading,
  type EvidenceOptions,
} from '../../src/documents/classify/evidence.js';
import { categoryScore, strength } from '../../src/documents/classify/fusion.js';
import { documentLanguage } from '../../src/documents/classify/language.js';
import {
  saturation,
  type Term,
  type TermBag,
  type WeightedKey,
} from '../../src/documents/classify/lexical.js';
import { clipLongWords } from '../../src/documents/classify/long-words.js';
import { separateNeighbours } from '../../src/documents/classify/near-neighbours.js';
import { sentenceEncoder } from '../../src/documents/encoder/sentence-encoder.js';
import { pagesOf } from '../../test/support/classify-eval.js';
import { loadRealEvalSet, REAL_EVAL_SETS } from '../../test/support/classify-eval-real.js';
import { SCHEMA_VARIANTS, schemaVariant } from '../../test/support/classify-eval-schemas.js';

const encoder = sentenceEncoder();
if (!encoder) process.exit(2);
encoder.rememberUpTo(60_000);
warmUpClassifier();

/** Surprisal (-log p) of a word: lower-case, or its more frequent casing. */
const surprisalCache = new Map<string, number>();
function surprisal(word: string, casing: 'lower' | 'best'): number {
  const cacheKey = `${casing}:${word}`;
  let value = surprisalCache.get(cacheKey);
  if (value === undefined) {
    const lower = encoder!.wordLogProbability(word);
    const capitalised = encoder!.wordLogProbability(word.charAt(0).toUpperCase() + word.slice(1));
    value = -(casing === 'lower' ? lower : Math.max(lower, capitalised));
    surprisalCache.set(cacheKey, value);
  }
  return value;
}

/**
 * A stem's weight in its statement and how it counts: `earns`, the share of its weight a
 * match earns (the total stays the weight: the statement's evidence falls); `repeats`, what
 * one repetition in the document counts for saturation.
 */
interface RarityKey extends WeightedKey {
  earns?: number;
  repeats?: number;
}
type KeyWeighing = (keys: WeightedKey[][][], terms: Term[][][]) => RarityKey[][][];

/**
 * Each stem of each statement with its word's rarity (`rarityOf`) applied as `applied` says; a
 * stem read from several words of the statement takes the most frequent one's (the smallest).
 */
function weighByRarity(
  keys: readonly WeightedKey[][][],
  terms: readonly Term[][][],
  rarityOf: (word: string) => number,
  applied: 'weight' | 'earns' | 'repeats',
): RarityKey[][][] {
  return keys.map((texts, c) =>
    texts.map((weighted, i) => {
      const least = new Map<string, number>();
      for (const { key, word } of terms[c][i]) {
        least.set(key, Math.min(least.get(key) ?? Infinity, rarityOf(word)));
      }
      return weighted.map(({ key, weight }) => {
        const r = least.get(key) ?? 1;
        if (applied === 'repeats') return { key, weight, repeats: r };
        return applied === 'weight' ? { key, weight: weight * r } : { key, weight, earns: r };
      });
    }),
  );
}

/** lexical.ts lexicalMatch with `earns` and `repeats`. */
function match(keys: readonly RarityKey[], bag: TermBag, length: number): number {
  let total = 0;
  let found = 0;
  for (const { key, weight, earns, repeats } of keys) {
    total += weight;
    found +=
      weight * (earns ?? 1) * saturation((repeats ?? 1) * (bag.counts.get(key) ?? 0), length);
  }
  return total === 0 ? 0 : found / total;
}

/** evidence.ts lexicalEvidence with the keys weighed by `weighing`. */
function lexicalEvidence(
  texts: readonly (readonly string[])[],
  { bag, pageCount, language }: Pick<DocumentReading, 'bag' | 'pageCount' | 'language'>,
  options: EvidenceOptions,
  weighing?: KeyWeighing,
): number[][] {
  const { keys, terms, language: criteriaLanguage } = keysOf(texts);
  const weighed: RarityKey[][][] = weighing ? weighing(keys, terms) : keys;
  const length = Math.max(1, bag.length / Math.max(1, pageCount));
  const same = language === undefined || language === criteriaLanguage;
  const share = lexicalFactor(keys, bag, same, options);
  return weighed.map((group) => group.map((statement) => share * match(statement, bag, length)));
}

const linear = (common: number, rare: number, min: number) => (s: number) =>
  min + (1 - min) * Math.min(1, Math.max(0, (s - common) / (rare - common)));

function byWord(
  map: (s: number) => number,
  applied: 'weight' | 'earns' | 'repeats',
  casing: 'lower' | 'best' = 'best',
): KeyWeighing {
  return (keys, terms) => weighByRarity(keys, terms, (w) => map(surprisal(w, casing)), applied);
}

/** Rank of each word's surprisal among the request's distinct words, (rank + 1) / n. */
function byRank(applied: 'weight' | 'earns', min: number): KeyWeighing {
  return (keys, terms) => {
    const words = [...new Set(terms.flat(2).map((t) => t.word))];
    const sorted = words.map((w) => surprisal(w, 'best')).sort((a, b) => a - b);
    const rankOf = new Map(
      words.map((w) => {
        const s = surprisal(w, 'best');
        const below = sorted.filter((v) => v < s).length;
        return [w, min + ((1 - min) * (below + 1)) / sorted.length];
      }),
    );
    return weighByRarity(keys, terms, (w) => rankOf.get(w) ?? 1, applied);
  };
}

/** `weighing` on the statements `which` picks (the name is statement 0), the rest as main. */
function onlyOn(weighing: KeyWeighing, which: (i: number) => boolean): KeyWeighing {
  return (keys, terms) => {
    const weighed = weighing(keys, terms);
    return keys.map((texts, c) => texts.map((plain, i) => (which(i) ? weighed[c][i] : plain)));
  };
}

/** The category-frequency weight raised to `power` before the rarity multiplies it. */
function withIcfPower(weighing: KeyWeighing, power: number): KeyWeighing {
  return (keys, terms) =>
    weighing(
      keys.map((texts) =>
        texts.map((statement) => statement.map((k) => ({ ...k, weight: k.weight ** power }))),
      ),
      terms,
    );
}

/** Rarity over its mean among the request's words, as the share a match earns. */
function normalizedEarns(map: (s: number) => number): KeyWeighing {
  return (keys, terms) => {
    const words = [...new Set(terms.flat(2).map((t) => t.word))];
    const mean = words.reduce((sum, w) => sum + map(surprisal(w, 'best')), 0) / words.length;
    return weighByRarity(keys, terms, (w) => map(surprisal(w, 'best')) / mean, 'earns');
  };
}

const MAIN_FORM = byWord(linear(8, 20, 0.2), 'weight');
const S_MINUS_6 = (s: number) => Math.min(20, Math.max(1, s - 6));
const CRITERIA = (i: number) => i > 0;
const FORMS: [string, KeyWeighing | undefined][] = [
  ['none (main)', undefined],
  ['linear -8..-20 min 0.2, weight', MAIN_FORM],
  ['the same, lower-case only', byWord(linear(8, 20, 0.2), 'weight', 'lower')],
  ['the same, criteria only', onlyOn(MAIN_FORM, CRITERIA)],
  ['the same, name only', onlyOn(MAIN_FORM, (i) => i === 0)],
  ['linear -8..-20 min 0.35, weight', byWord(linear(8, 20, 0.35), 'weight')],
  ['linear -8..-20 min 0.5, weight', byWord(linear(8, 20, 0.5), 'weight')],
  ['linear -9..-18 min 0.25, weight', byWord(linear(9, 18, 0.25), 'weight')],
  ['linear -8..-24 min 0.2, weight', byWord(linear(8, 24, 0.2), 'weight')],
  ['linear -10..-16 min 0.3, weight', byWord(linear(10, 16, 0.3), 'weight')],
  ['linear -11..-20 min 0.2, weight', byWord(linear(11, 20, 0.2), 'weight')],
  ['s - 6 (1..20), weight', byWord(S_MINUS_6, 'weight')],
  ['s - 6 (1..20), criteria only', onlyOn(byWord(S_MINUS_6, 'weight'), CRITERIA)],
  ['sqrt(s - 6), weight', byWord((s) => Math.sqrt(S_MINUS_6(s)), 'weight')],
  ['log s (s in 4..30), weight', byWord((s) => Math.log(Math.min(30, Math.max(4, s))), 'weight')],
  ['rank in request min 0.2, weight', byRank('weight', 0.2)],
  ['rank in request min 0.2, criteria only', onlyOn(byRank('weight', 0.2), CRITERIA)],
  ['rarity alone, no icf (linear -8..-20 min 0.2)', withIcfPower(MAIN_FORM, 0)],
  ['sqrt icf x linear -8..-20 min 0.2', withIcfPower(MAIN_FORM, 0.5)],
  ['linear -8..-20 min 0.2, earns', byWord(linear(8, 20, 0.2), 'earns')],
  ['linear -8..-20 min 0.5, earns', byWord(linear(8, 20, 0.5), 'earns')],
  ['linear -10..-16 min 0.5, earns', byWord(linear(10, 16, 0.5), 'earns')],
  ['linear -10..-16 min 0.7, earns', byWord(linear(10, 16, 0.7), 'earns')],
  ['rank in request min 0.5, earns', byRank('earns', 0.5)],
  ['earns rarity / request mean, min 0.2', normalizedEarns(linear(8, 20, 0.2))],
  ['earns rarity / request mean, min 0.5', normalizedEarns(linear(8, 20, 0.5))],
  ['the same, criteria only', onlyOn(normalizedEarns(linear(8, 20, 0.5)), CRITERIA)],
  ['repeats x rarity, linear -8..-20 min 0.2', byWord(linear(8, 20, 0.2), 'repeats')],
  ['repeats x rarity, linear -8..-20 min 0.5', byWord(linear(8, 20, 0.5), 'repeats')],
  ['the same, criteria only', onlyOn(byWord(linear(8, 20, 0.5), 'repeats'), CRITERIA)],
];

const only = process.argv.includes('--only')
  ? process.argv[process.argv.indexOf('--only') + 1]
  : '';
/** `--diff <form index>`: the documents that form gets right or wrong unlike main. */
const diff = process.argv.includes('--diff')
  ? Number(process.argv[process.argv.indexOf('--diff') + 1])
  : -1;
/** right[form][cell] */
const right = FORMS.map(() => new Map<string, number>());
const totals = new Map<string, number>();
const text = (page: PageText) => (typeof page === 'string' ? page : page.text);

for (const set of REAL_EVAL_SETS) {
  for (const model of ['default', 'accurate'] as const) {
    if (only && !`${set}/${model}`.startsWith(only)) continue;
    const reading = model === 'accurate' ? DEEP_DOCUMENT_READING : DOCUMENT_READING;
    const loaded = await loadRealEvalSet(['dev'], undefined, ocrEffortOf(model), set);
    const variants = SCHEMA_VARIANTS.map((name) => schemaVariant(set, name));
    const started = Date.now();
    for (const document of loaded.documents) {
      const pages = pagesOf(document);
      const words = pages.map((page) => clipLongWords(text(page)));
      const language = documentLanguage(words, undefined);
      const lexicalReading = {
        bag: documentBag(words, undefined, language),
        pageCount: words.length,
        language,
      };
      for (const variant of variants) {
        const cell = `${set}/${variant.name}/${model}`;
        totals.set(cell, (totals.get(cell) ?? 0) + 1);
        const { schema, evidence } = schemaEvidence({
          pages,
          classificationSchema: variant.schema,
          model,
        });
        const names = schema.map((entry) => entry.category);
        const expected = names.indexOf(variant.expected(document.category));
        const texts = schema.map((entry) => [labelText(entry.category), ...entry.criteria]);
        const got: string[] = [];
        FORMS.forEach(([, weighing], f) => {
          const lexical = lexicalEvidence(texts, lexicalReading, reading, weighing);
          const replayed = evidence.map((category, c) => ({
            ...category,
            label: { ...category.label, lexical: lexical[c][0] },
            criteria: category.criteria.map((criterion, i) => ({
              ...criterion,
              lexical: lexical[c][i + 1],
            })),
          }));
          let scores = replayed.map((category) => ({
            score: categoryScore(category),
            criteria: category.criteria.map((criterion) => strength(criterion)),
          }));
          if (model === 'accurate') scores = separateNeighbours(schema, replayed, scores);
          const chosen = chooseCategory(scores, names);
          got.push(names[chosen] ?? '-');
          if (chosen === expected) {
            right[f].set(cell, (right[f].get(cell) ?? 0) + 1);
          }
        });
        if (diff > 0 && got[diff] !== got[0]) {
          console.log(`${cell} ${document.file} (${names[expected]}): ${got[0]} -> ${got[diff]}`);
        }
      }
    }
    console.log(
      `${set} ${model}: ${loaded.documents.length} documents, ${Math.round((Date.now() - started) / 1000)} s`,
    );
  }
}

const cells = [...totals.keys()];
const pairs = [...new Set(cells.map((cell) => cell.replace(/\/(default|accurate)$/, '')))];
console.log(`| form | ${pairs.join(' | ')} | total | worst cell |`);
console.log(`|---|${pairs.map(() => '---:|').join('')}---:|---:|`);
FORMS.forEach(([name], f) => {
  const get = (cell: string) => right[f].get(cell) ?? 0;
  const delta = cells.map((cell) => get(cell) - (right[0].get(cell) ?? 0));
  const total = cells.reduce((sum, cell) => sum + get(cell), 0);
  const shown = pairs.map((pair) => `${get(`${pair}/default`)} / ${get(`${pair}/accurate`)}`);
  const base = cells.reduce((sum, cell) => sum + (right[0].get(cell) ?? 0), 0);
  console.log(
    `| ${name} | ${shown.join(' | ')} | ${total} (${total - base >= 0 ? '+' : ''}${total - base}) | ${Math.min(...delta)} |`,
  );
});
