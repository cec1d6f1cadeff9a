import de from './de.js';
import es from './es.js';
import fr from './fr.js';
import it from './it.js';
import nl from './nl.js';
import pl from './pl.js';
import pt from './pt.js';

/**
 * Document vocabulary of the seven non-English languages docproc reads, mapped to English:
 * one line per English word or phrase, `english = form | form | multi-word form`. Forms are
 * written as they appear in documents (inflected forms are found through the language's
 * stemmer, so one form per word is usually enough); several English words on the left
 * ("invoice number") are emitted together, so a German "Rechnungsnummer" is evidence for
 * the phrase "invoice number" as well as for each word.
 *
 * Why a hand-written list: criteria are written in English and matched on English lemmas;
 * no registry package ships an offline bilingual dictionary or multilingual wordnet for
 * these languages (those that exist download their data at run time), see
 * docs/decisions/0069-eight-languages-through-a-lexicon-bridge.md. The list covers the
 * vocabulary of business, legal, personal, tax, medical and research documents, not the
 * whole language.
 */
export const LEXICONS = { de, fr, nl, es, it, pt, pl } as const;

export type ForeignLanguage = keyof typeof LEXICONS;

export interface LexiconLine {
  english: string;
  forms: string[];
}

/** The parsed lines of one language's list. */
export function lexiconLines(language: ForeignLanguage): LexiconLine[] {
  const lines: LexiconLine[] = [];
  for (const raw of LEXICONS[language].split('\n')) {
    const at = raw.indexOf('=');
    if (at < 0) continue;
    const english = raw.slice(0, at).trim();
    const forms = raw
      .slice(at + 1)
      .split('|')
      .map((form) => form.trim().toLowerCase())
      .filter((form) => form !== '');
    if (english !== '' && forms.length > 0) lines.push({ english, forms });
  }
  return lines;
}
