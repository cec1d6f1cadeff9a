import { createRequire } from 'node:module';
import type { Language } from './language.js';

const require = createRequire(import.meta.url);

type Stem = (word: string) => string;

/** Snowball algorithm names of `snowball-stemmers`; Polish comes from `@nlpjs/lang-pl`. */
const SNOWBALL: Record<Exclude<Language, 'pl'>, string> = {
  en: 'english',
  de: 'german',
  fr: 'french',
  nl: 'dutch',
  es: 'spanish',
  it: 'italian',
  pt: 'portuguese',
  sv: 'swedish',
  da: 'danish',
  no: 'norwegian',
  fi: 'finnish',
  ru: 'russian',
  ro: 'romanian',
  hu: 'hungarian',
  tr: 'turkish',
  cs: 'czech',
  ca: 'catalan',
};

const stemmers = new Map<Language, Stem>();

function build(language: Language): Stem {
  if (language === 'pl') {
    const { StemmerPl } = require('@nlpjs/lang-pl') as {
      StemmerPl: new () => { stem(word: string): string };
    };
    const stemmer = new StemmerPl();
    return (word) => stemmer.stem(word) || word;
  }
  const snowball = require('snowball-stemmers') as {
    newStemmer(name: string): { stem(word: string): string };
  };
  const stemmer = snowball.newStemmer(SNOWBALL[language]);
  return (word) => stemmer.stem(word) || word;
}

/** The language's stemmer (lower-case word in, stem out), built once. */
export function stemmerFor(language: Language): Stem {
  let stem = stemmers.get(language);
  if (!stem) {
    const inner = build(language);
    // A stemmer that throws on odd input (it never should) must not fail a request.
    stem = (word) => {
      try {
        return inner(word);
      } catch {
        return word;
      }
    };
    stemmers.set(language, stem);
  }
  return stem;
}
