import { stopwordsOf } from './language.js';
import { lexiconLines, type ForeignLanguage } from './lexicon/index.js';
import { stemmerFor } from './stemmers.js';
import { analyze, type Term } from './text-analysis.js';

/** An English word a foreign form stands for, as the English analyser lemmatises it. */
interface EnglishWord {
  lemma: string;
  stem: string;
  weak: boolean;
}

/** Senses of a form: each an English word sequence ("invoice number" = two words). */
type Senses = EnglishWord[][];

interface Bridge {
  stem: (word: string) => string;
  stop: ReadonlySet<string>;
  /** Stem of a one-word form -> senses. */
  words: Map<string, Senses>;
  /** Lower-case one-word form as written -> senses (for the parts of compounds). */
  raw: Map<string, Senses>;
  /** Stem of a one-word form written without accents -> senses. */
  plainWords: Map<string, Senses>;
  /** Stems of a multi-word form joined by spaces -> senses. */
  phrases: Map<string, Senses>;
  longestPhrase: number;
  /** Every English lemma the lexicon produces: English words inside foreign text. */
  english: Map<string, EnglishWord>;
  cache: Map<string, Senses | null>;
}

/** Words (letters, marks, digits, inner hyphens), sentence ends and line breaks. */
const TOKEN = /[\p{L}\p{M}\p{N}]+(?:-[\p{L}\p{M}\p{N}]+)*|[.!?;]+(?=\s|$)|\n/gu;
const HAS_LETTER = /\p{L}/u;
const SPACED_OUT = /^(?:\p{L}-){3,}\p{L}$/u;
const MARKS = /\p{M}/gu;

/** The word without accents and umlauts: OCR and ASCII-only systems drop them. */
function plain(word: string): string {
  return word.normalize('NFD').replace(MARKS, '');
}
/** German and Dutch glue compound parts with these ("Rechnung-s-nummer", "bedrijf-s-"). */
const LINKS = ['s', 'es', 'n', 'en', 'e'];
const MIN_COMPOUND = 7;
const MIN_PART = 3;
/** Content words after a negator that it denies ("kein Beleg", "pas une facture"). */
const NEGATION_SCOPE = 3;
const NEGATORS: Record<ForeignLanguage, readonly string[]> = {
  de: ['nicht', 'kein', 'keine', 'keinen', 'keinem', 'keiner', 'keines'],
  fr: ['pas', 'non', 'aucun', 'aucune'],
  nl: ['niet', 'geen'],
  es: ['no', 'ningún', 'ninguna', 'ni'],
  it: ['non', 'nessun', 'nessuna'],
  pt: ['não', 'nenhum', 'nenhuma'],
  pl: ['nie', 'brak'],
};

const bridges = new Map<ForeignLanguage, Bridge>();

function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(TOKEN) ?? []).filter((token) => HAS_LETTER.test(token));
}

function addSense(map: Map<string, Senses>, key: string, sense: EnglishWord[]): void {
  const senses = map.get(key);
  if (!senses) map.set(key, [sense]);
  else if (
    !senses.some((known) => known.map((w) => w.lemma).join() === sense.map((w) => w.lemma).join())
  ) {
    senses.push(sense);
  }
}

/** The stemmer with a bounded memo: documents repeat their words, stemming is the hot path. */
function memoised(stem: (word: string) => string): (word: string) => string {
  const memo = new Map<string, string>();
  return (word) => {
    let out = memo.get(word);
    if (out === undefined) {
      if (memo.size > 50_000) memo.clear();
      memo.set(word, (out = stem(word)));
    }
    return out;
  };
}

function buildBridge(language: ForeignLanguage): Bridge {
  const stem = memoised(stemmerFor(language));
  const stop = stopwordsOf(language);
  const bridge: Bridge = {
    stem,
    stop,
    words: new Map(),
    raw: new Map(),
    plainWords: new Map(),
    phrases: new Map(),
    longestPhrase: 1,
    english: new Map(),
    cache: new Map(),
  };
  for (const line of lexiconLines(language)) {
    const sense: EnglishWord[] = analyze(line.english, true).map((term) => ({
      lemma: term.lemma,
      stem: term.stem,
      weak: term.weak,
    }));
    if (sense.length === 0) continue;
    for (const word of sense) bridge.english.set(word.lemma, word);
    for (const form of line.forms) {
      // Multi-word forms keep their function words: "sans contact" is not "contact".
      const words = wordsOf(form);
      if (words.length === 1) {
        addSense(bridge.words, stem(words[0]), sense);
        addSense(bridge.raw, words[0], sense);
        addSense(bridge.plainWords, stem(plain(words[0])), sense);
      } else if (words.length > 1) {
        addSense(bridge.phrases, words.map(stem).join(' '), sense);
        bridge.longestPhrase = Math.max(bridge.longestPhrase, words.length);
      }
    }
  }
  return bridge;
}

function bridgeFor(language: ForeignLanguage): Bridge {
  let bridge = bridges.get(language);
  if (!bridge) bridges.set(language, (bridge = buildBridge(language)));
  return bridge;
}

function part(bridge: Bridge, word: string): Senses | undefined {
  if (word.length < MIN_PART) return undefined;
  return bridge.raw.get(word) ?? bridge.words.get(bridge.stem(word));
}

/**
 * Splits a compound into two known parts ("kontoauszug" = konto + auszug,
 * "rechnungsnummer" = rechnung + s + nummer); failing that, its head (last part) alone
 * carries the meaning ("kontoführungsgebühr" -> fee).
 */
function decompound(bridge: Bridge, word: string): Senses | undefined {
  if (word.length < MIN_COMPOUND) return undefined;
  let head: Senses | undefined;
  for (let split = MIN_PART; split <= word.length - MIN_PART; split++) {
    const right = part(bridge, word.slice(split));
    if (!right) continue;
    const left = word.slice(0, split);
    let leftSenses = part(bridge, left);
    for (const link of LINKS) {
      if (leftSenses) break;
      if (left.endsWith(link)) leftSenses = part(bridge, left.slice(0, -link.length));
    }
    if (leftSenses) return [[...leftSenses[0], ...right[0]]];
    head ??= right;
  }
  return head;
}

/** Senses of one word: its stem, its written form, its compound parts, or English itself. */
function lookup(bridge: Bridge, word: string): Senses | null {
  const cached = bridge.cache.get(word);
  if (cached !== undefined) return cached;
  const english = bridge.english.get(word);
  const found =
    bridge.words.get(bridge.stem(word)) ??
    bridge.raw.get(word) ??
    (english ? [[english]] : undefined) ??
    bridge.plainWords.get(bridge.stem(plain(word))) ??
    decompound(bridge, word) ??
    null;
  if (bridge.cache.size > 50_000) bridge.cache.clear();
  bridge.cache.set(word, found);
  return found;
}

/**
 * A raw token as the words it stands for: letters spaced out with hyphens on receipts
 * ("K-U-N-D-E-N-B-E-L-E-G") are one word; a hyphenated token the lexicon does not know
 * ("Genehmigungs-Nr", "Terminal-ID" are known, "Bio-Joghurt" is not) is its parts.
 */
function pieces(bridge: Bridge, token: string): string[] {
  if (!token.includes('-')) return [token];
  if (SPACED_OUT.test(token)) return [token.replace(/-/g, '')];
  if (lookup(bridge, token) !== null) return [token];
  return token.split('-').filter((part) => part !== '');
}

interface Token {
  word: string;
  stem: string;
  sentence: number;
  negated: boolean;
  /** A function word: only ever part of a lexicon phrase, never a term of its own. */
  stop: boolean;
}

function tokenize(bridge: Bridge, language: ForeignLanguage, text: string, deep: boolean): Token[] {
  const negators = new Set(NEGATORS[language]);
  const out: Token[] = [];
  let sentence = 0;
  let denied = 0;
  for (const raw of text.toLowerCase().match(TOKEN) ?? []) {
    for (const token of pieces(bridge, raw)) {
      if (!/[\p{L}\p{M}\p{N}]/u.test(token)) {
        if (deep) sentence++;
        denied = 0;
        continue;
      }
      if (deep && negators.has(token)) {
        denied = NEGATION_SCOPE;
        continue;
      }
      const number = !HAS_LETTER.test(token);
      const stop =
        !number && (token.length < 2 || bridge.stop.has(token)) && lookup(bridge, token) === null;
      const stem = number ? token : bridge.stem(token);
      out.push({ word: token, stem, sentence, negated: denied > 0, stop });
      if (denied > 0 && !stop) denied--;
    }
  }
  return out;
}

/**
 * Terms of a text in one of the bridged languages, in the English analyser's vocabulary:
 * lexicon words and phrases become the English lemmas they stand for (so English criteria
 * find them), other words keep their stem in the document's language (so criteria written
 * in that language find them). Extra senses of an ambiguous form ("Summe": amount, total)
 * come after the text's own terms, in sentences of their own, so they never form phrases.
 */
export function analyzeForeign(text: string, language: ForeignLanguage, deep: boolean): Term[] {
  const bridge = bridgeFor(language);
  const tokens = tokenize(bridge, language, text, deep);
  const terms: Term[] = [];
  const extra: Term[] = [];
  let extraSentence = -1;
  const emit = (sense: EnglishWord[], from: Token, into: Term[], sentence: number) => {
    for (const word of sense) {
      into.push({
        lemma: word.lemma,
        stem: word.stem,
        weak: word.weak,
        sentence,
        negated: from.negated,
      });
    }
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    let senses: Senses | null = null;
    let used = 1;
    for (let size = Math.min(bridge.longestPhrase, tokens.length - i); size > 1; size--) {
      const span = tokens.slice(i, i + size);
      if (span.some((t) => t.sentence !== token.sentence)) continue;
      const found = bridge.phrases.get(span.map((t) => t.stem).join(' '));
      if (found) {
        senses = found;
        used = size;
        break;
      }
    }
    if (!senses && token.stop) continue;
    if (!senses && HAS_LETTER.test(token.word)) senses = lookup(bridge, token.word);
    if (senses) {
      emit(senses[0], token, terms, token.sentence);
      for (const sense of senses.slice(1)) emit(sense, token, extra, extraSentence--);
    } else {
      // A word the lexicon does not know keeps its stem, so criteria written in the
      // document's language find it. A stem that is not the word itself is marked with
      // the language: the Portuguese "taxa" (a rate; taxa in biology) stems to "tax", and
      // must not be an English criterion's "tax". A word that is its own stem (an English
      // word in the text: "abstract", "software") stays as it is.
      const stem = token.stem;
      terms.push({
        lemma: stem === token.word ? stem : `${language}:${stem}`,
        stem,
        weak: false,
        sentence: token.sentence,
        negated: token.negated,
      });
    }
    i += used - 1;
  }
  return terms.concat(extra);
}
