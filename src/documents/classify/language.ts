import { eld } from 'eld/small';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Languages whose words the lexical evidence stems (a Snowball stemmer each, Polish from
 * `@nlpjs/lang-pl`) and whose function words it drops (stopwords-iso). Text in any other
 * language is still read by the multilingual sentence encoder; its words are only lower-cased.
 */
export const LANGUAGES = [
  'en',
  'de',
  'fr',
  'nl',
  'es',
  'it',
  'pt',
  'pl',
  'sv',
  'da',
  'no',
  'fi',
  'ru',
  'ro',
  'hu',
  'tr',
  'cs',
  'ca',
] as const;
export type Language = (typeof LANGUAGES)[number];

/** Characters of text looked at: enough for a stable answer, cheap on long documents. */
const SAMPLE_CHARS = 4000;
/** Below this many letters the n-gram detector is not trusted on its own. */
const MIN_LETTERS = 24;

let subsetDone = false;
let stopwordSets: Map<Language, Set<string>> | undefined;

/** stopwords-iso's lists of the supported languages (function words of each). */
export function stopwordsOf(language: Language): ReadonlySet<string> {
  if (!stopwordSets) {
    const all = require('stopwords-iso') as Record<string, string[]>;
    stopwordSets = new Map(LANGUAGES.map((code) => [code, new Set(all[code] ?? [])]));
  }
  return stopwordSets.get(language) ?? new Set();
}

const WORD = /[\p{L}\p{M}]+/gu;

/** Function words of each language among the words of `text`: for short or mixed texts. */
function stopwordVote(text: string): Language | undefined {
  const words = (text.toLowerCase().match(WORD) ?? []).slice(0, 600);
  let best: Language | undefined;
  let bestHits = 0;
  for (const language of LANGUAGES) {
    const stop = stopwordsOf(language);
    const hits = words.filter((word) => word.length > 1 && stop.has(word)).length;
    if (hits > bestHits) {
      best = language;
      bestHits = hits;
    }
  }
  return best;
}

/**
 * The language of a text among LANGUAGES, by ELD's n-gram model when it calls its answer
 * reliable, else by a function-word vote, else English. Deterministic; empty or letterless
 * text is English.
 */
export function detectLanguage(text: string): Language {
  const sample = text.slice(0, SAMPLE_CHARS);
  const letters = sample.match(WORD)?.join('').length ?? 0;
  if (letters === 0) return 'en';
  if (!subsetDone) {
    eld.setLanguageSubset([...LANGUAGES]);
    subsetDone = true;
  }
  const result = eld.detect(sample);
  const found = LANGUAGES.find((code) => code === result.language);
  if (found && letters >= MIN_LETTERS && result.isReliable()) return found;
  return stopwordVote(sample) ?? 'en';
}

/**
 * The language of a document: its pages sampled from start, middle and end (a first page
 * of names and numbers says less than the running text after it).
 */
export function documentLanguage(pages: readonly string[], metadata?: string): Language {
  const sample: string[] = [];
  const picks = new Set([0, Math.floor(pages.length / 2), pages.length - 1]);
  for (const index of picks) if (pages[index]) sample.push(pages[index].slice(0, 1500));
  if (metadata) sample.push(metadata);
  return detectLanguage(sample.join('\n'));
}

/** Loads the n-gram model and stop-word lists now (executor warm-up). */
export function warmUpLanguage(): void {
  detectLanguage('Das ist ein kurzer Satz in deutscher Sprache.');
}
