import { eld } from 'eld/small';
import { createRequire } from 'node:module';
import { lexiconLines } from './lexicon/index.js';

const require = createRequire(import.meta.url);

/** The languages docproc classifies in: English plus the seven its lexicons bridge. */
export const LANGUAGES = ['en', 'de', 'fr', 'nl', 'es', 'it', 'pt', 'pl'] as const;
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
const MARKS = /\p{M}/gu;

let lexiconWords: Map<Language, Set<string>> | undefined;

/**
 * One-word forms of each language's lexicon (see lexicon/index.ts), also without accents
 * (OCR drops umlauts): a till receipt or form has few function words, but its field names
 * ("Summe", "Datum", "Kartenzahlung") are the lexicon's words. Forms that are English words
 * too ("total", "terminal") are left out: they say nothing about the language.
 */
function lexiconWordsOf(language: Language): ReadonlySet<string> {
  if (!lexiconWords) {
    const english = stopwordsOf('en');
    lexiconWords = new Map();
    for (const code of LANGUAGES) {
      const words = new Set<string>();
      if (code !== 'en') {
        for (const line of lexiconLines(code)) {
          const englishWords = new Set(line.english.toLowerCase().split(/\s+/));
          for (const form of line.forms) {
            if (/\s/.test(form) || englishWords.has(form) || english.has(form)) continue;
            words.add(form);
            words.add(form.normalize('NFD').replace(MARKS, ''));
          }
        }
      }
      lexiconWords.set(code, words);
    }
  }
  return lexiconWords.get(language) ?? new Set();
}

/**
 * Function words and lexicon words of each language among the words of `text`: the
 * fallback for texts too short or too mixed for the n-gram model (a till receipt in
 * capitals, OCR'd with its umlauts lost).
 */
function stopwordVote(text: string): Language | undefined {
  const words = (text.toLowerCase().match(WORD) ?? []).slice(0, 600);
  let best: Language | undefined;
  let bestHits = 0;
  for (const language of LANGUAGES) {
    const stop = stopwordsOf(language);
    const lexicon = lexiconWordsOf(language);
    const hits = words.filter(
      (word) => word.length > 1 && (stop.has(word) || (word.length > 3 && lexicon.has(word))),
    ).length;
    if (hits > bestHits) {
      best = language;
      bestHits = hits;
    }
  }
  return best;
}

/**
 * The language of a text among LANGUAGES, by ELD's n-gram model (restricted to those
 * languages) when it calls its answer reliable, else by a stop-word vote, else English
 * (a guess on a few words, "zebra giraffe", must not send English text through a bridge).
 * Deterministic; empty or letterless text is English (nothing to bridge).
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

/** Loads the n-gram model and stop-word lists now (worker warm-up). */
export function warmUpLanguage(): void {
  detectLanguage('Rechnung Nummer und Datum der Lieferung');
}
