import { analyzeForeign } from './foreign-analysis.js';
import { detectLanguage, LANGUAGES, type Language } from './language.js';
import { analyze, type Term } from './text-analysis.js';

export type { Language } from './language.js';

/**
 * Terms of a text in the given language (detected when not given): English through the
 * wink model, the other supported languages through their lexicon bridge, so both come
 * out in English lemmas where the lexicon knows the word.
 */
export function analyzeText(text: string, deep: boolean, language?: Language): Term[] {
  const lang = language ?? detectLanguage(text);
  return lang === 'en' ? analyze(text, deep) : analyzeForeign(text, lang, deep);
}

/** The language of a document: detected on its pages together (and its metadata). */
export function documentLanguage(pages: readonly string[], metadata?: string): Language {
  return detectLanguage([...pages.slice(0, 3), metadata ?? ''].join('\n'));
}

/** Loads the language model, stemmers and every lexicon bridge now (worker warm-up). */
export function warmUpAnalysis(): void {
  for (const language of LANGUAGES) analyzeText('Rechnung 1', true, language);
  documentLanguage(['Facture numéro 1 du 12/03/2024']);
}
