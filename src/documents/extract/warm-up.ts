import { warmUpLanguage } from '../classify/language.js';
import { currencyOf } from './currency-table.js';
import { monthNumber } from './dates.js';
import { sentenceEncoder } from '../encoder/sentence-encoder.js';
import { entityKindOfWord } from './wordnet-kinds.js';

/**
 * Builds what extract reads once per process (the sentence encoder, month and
 * currency names from Intl, WordNet's noun index, the language model), so the first
 * request does not pay for it (about 0.5-1 s).
 */
export function warmUpExtract(): Promise<void> {
  sentenceEncoder()?.embed(['Rechnungsnummer']);
  monthNumber('march');
  currencyOf('€');
  entityKindOfWord('company');
  warmUpLanguage();
  return Promise.resolve();
}
