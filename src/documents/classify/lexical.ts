/**
 * Lexical evidence: the words of a criterion found in the document, each stemmed in its
 * text's language (Snowball), function words dropped, accents folded, weighted by how few
 * of the schema's categories use it (a word every category's criteria share tells none
 * apart), with BM25 saturation of repetitions. Works in any language the stemmers know;
 * across languages it finds only shared words (names, numbers, loanwords), which is what
 * the sentence encoder is for.
 */
import { stopwordsOf, type Language } from './language.js';
import { stemmerFor } from './stemmers.js';
import { hasSpacelessScript, wordsOf } from './words.js';

export interface TermBag {
  counts: Map<string, number>;
  length: number;
}

export interface WeightedKey {
  key: string;
  weight: number;
}

const WORD = /[\p{L}\p{M}][\p{L}\p{M}'’-]*/gu;
const MARKS = /\p{M}/gu;
/** Characters of a document read for words. */
const MAX_CHARS = 200_000;

/**
 * Which words of a text count: `content` words only; `content-or-all`, all of them when it
 * has no content word (a criterion such as "amount due" whose every word is on a stop list
 * is read by those words rather than by none); `all` (a document: any criterion's words
 * may be looked up in it).
 */
export type WordChoice = 'content' | 'content-or-all' | 'all';

/** A stem of a text and the word (lower-cased) it was read from. */
export interface Term {
  key: string;
  word: string;
}

/** Visits each stem of the words of `text` (see WordChoice), accents folded, with its word. */
function eachTerm(
  text: string,
  language: Language,
  choice: WordChoice,
  visit: (key: string, word: string) => void,
): void {
  const stop = stopwordsOf(language);
  const english = stopwordsOf('en');
  const stem = stemmerFor(language);
  // A run of a script written without spaces is a sentence, not a word: cut into its words.
  const words = [...text.slice(0, MAX_CHARS).toLowerCase().matchAll(WORD)].flatMap((match) => {
    const word = match[0].replace(/['’-]+$/, '');
    return hasSpacelessScript(word) ? wordsOf(word).map((part) => part.text) : [word];
  });
  const content = words.filter((word) => word.length >= 2 && !stop.has(word) && !english.has(word));
  const keep =
    choice === 'all' || (choice === 'content-or-all' && content.length === 0) ? words : content;
  for (const word of keep) {
    if (word.length < 2) continue;
    const key = stem(word).normalize('NFD').replace(MARKS, '');
    if (key !== '') visit(key, word);
  }
}

/** Stems of the words of `text` (see WordChoice), accents folded. */
export function termsOf(
  text: string,
  language: Language,
  choice: WordChoice = 'content',
): string[] {
  const out: string[] = [];
  eachTerm(text, language, choice, (key) => out.push(key));
  return out;
}

/** termsOf with the word each stem was read from. */
export function wordTermsOf(
  text: string,
  language: Language,
  choice: WordChoice = 'content',
): Term[] {
  const out: Term[] = [];
  eachTerm(text, language, choice, (key, word) => out.push({ key, word }));
  return out;
}

export function bagOf(terms: readonly string[], weight = 1, into?: TermBag): TermBag {
  const bag = into ?? { counts: new Map<string, number>(), length: 0 };
  for (const term of terms) bag.counts.set(term, (bag.counts.get(term) ?? 0) + weight);
  bag.length += terms.length;
  return bag;
}

/**
 * Each text's distinct stems weighted by inverse category frequency: `groups[c]` are the
 * texts of category c (its name and criteria); a stem used by every category weighs least.
 */
export function weightKeys(groups: readonly (readonly string[][])[]): WeightedKey[][][] {
  const frequency = new Map<string, number>();
  for (const texts of groups) {
    for (const key of new Set(texts.flat())) frequency.set(key, (frequency.get(key) ?? 0) + 1);
  }
  const total = groups.length;
  return groups.map((texts) =>
    texts.map((terms) =>
      [...new Set(terms)].map((key) => ({
        key,
        weight: Math.log(1 + total / (frequency.get(key) ?? 1)),
      })),
    ),
  );
}

const K1 = 1.2;
const B = 0.5;
const AVERAGE_LENGTH = 250;

/** A stem's share of its weight earned by `count` repetitions in a text of `length` words. */
export function saturation(count: number, length: number): number {
  if (count <= 0) return 0;
  const k = K1 * (1 - B + (B * length) / AVERAGE_LENGTH);
  return Math.min(1, (count * (K1 + 1)) / (count + k));
}

/** The weighted share of `keys` present in `bag`, 0..1, repetitions saturating (BM25). */
export function lexicalMatch(
  keys: readonly WeightedKey[],
  bag: TermBag,
  length = bag.length,
): number {
  let total = 0;
  let found = 0;
  for (const { key, weight } of keys) {
    total += weight;
    found += weight * saturation(bag.counts.get(key) ?? 0, length);
  }
  return total === 0 ? 0 : found / total;
}
