/**
 * Numbers written in words ("twelve", "twenty-five", "one hundred and five"), read by
 * compromise, a maintained English NLP library, for the languages it reads. A value in
 * words no reader reads is still a value in words: it is reported as such, so a number
 * field answers null rather than a figure from elsewhere in the document.
 */
import { createRequire } from 'node:module';

interface NumberView {
  isCardinal(): NumberView;
  json(): { text: string }[];
  get(): number[];
}
type Reader = (text: string) => { numbers(): NumberView };

/** Languages a number-word reader exists for, by the document language's code. */
const READER_LANGUAGES = new Set(['en']);

/** At most this many words: a quantity, not a sentence that happens to hold a number. */
const MAX_WORDS = 6;

let reader: Reader | undefined;

/**
 * Loaded on the first value in words, not at warm-up: it costs an executor about 35 MB and
 * 0.3 s, and most never read a number in words (record 0490).
 */
function englishReader(): Reader {
  reader ??= createRequire(import.meta.url)('compromise/three') as Reader;
  return reader;
}

/** Words only, short, no digit: how a value written out in words looks in any language. */
export function inWordsOnly(text: string): boolean {
  const t = text.trim();
  if (t === '' || /\d/.test(t) || !/^[\p{L}\p{M}\s'’.,()-]+$/u.test(t)) return false;
  return t.split(/\s+/).length <= MAX_WORDS;
}

export interface WordNumber {
  value: number;
  /** Share of the text the number's words are (1: all of it). */
  coverage: number;
}

/**
 * The cardinal number `text` spells out, in `language`; null when it spells none or no
 * reader reads the language. Ordinals ("first") are not quantities and are not read.
 */
export function numberInWords(text: string, language: string): WordNumber | null {
  if (!READER_LANGUAGES.has(language) || !inWordsOnly(text)) return null;
  const numbers = englishReader()(text).numbers().isCardinal();
  const values = numbers.get();
  if (values.length !== 1 || !Number.isFinite(values[0])) return null;
  const words = numbers.json()[0]?.text ?? '';
  const letters = (s: string) => s.replace(/[^\p{L}]/gu, '').length;
  return { value: values[0], coverage: Math.min(1, letters(words) / Math.max(1, letters(text))) };
}
