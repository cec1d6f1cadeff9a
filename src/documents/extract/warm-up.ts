import { warmUpLanguage } from '../classify/language.js';
import { currencyOf } from './amounts.js';
import { monthNumber } from './dates.js';
import { conceptsOf } from './label-similarity.js';
import { entityKindOfWord } from './wordnet-kinds.js';

/**
 * Builds what extract reads once per process (the lexicon bridge and stemmers, month and
 * currency names from Intl, WordNet's noun index, the language model), so the first
 * request does not pay for it (about 0.5-1 s).
 */
export function warmUpExtract(): Promise<void> {
  conceptsOf('Rechnungsnummer');
  monthNumber('march');
  currencyOf('€');
  entityKindOfWord('company');
  warmUpLanguage();
  return Promise.resolve();
}
