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

/** A line with at least this many words is a sentence, not a title, name or address. */
const SENTENCE_WORDS = 12;
/**
 * Below this many sentences a document is mostly layout (an invoice's legal footer, a
 * receipt): its first pages as a whole tell its language better than a few lines.
 */
const MIN_VOTERS = 8;
/** Sentences whose language is voted on, drawn evenly from the whole document. */
const VOTERS = 15;
/** Characters of a sentence looked at, and of the document scanned for sentences. */
const VOTER_CHARS = 600;
const SCAN_CHARS = 400_000;

/**
 * A sentence is mostly plain words; a table row of codes, amounts and a few English
 * words (a French statement's "Savings plan execution DE0008430026 ... 50,00 €") is not.
 */
const SENTENCE_SHARE = 0.8;
const PLAIN_WORD = /^[("'«„]?\p{L}[\p{L}\p{M}'’-]*[)"'»“,.;:!?]?$/u;

/** Lines of SENTENCE_WORDS plain words or more: running text (bounded scan of huge documents). */
function sentenceLines(pages: readonly string[]): string[] {
  const lines: string[] = [];
  let scanned = 0;
  for (const page of pages) {
    const text = page.slice(0, Math.max(0, SCAN_CHARS - scanned));
    scanned += text.length;
    for (const line of text.split('\n')) {
      const tokens = line.slice(0, VOTER_CHARS).split(/\s+/).filter(Boolean);
      const words = tokens.filter((token) => PLAIN_WORD.test(token)).length;
      if (words >= SENTENCE_WORDS && words >= SENTENCE_SHARE * tokens.length) {
        lines.push(line.slice(0, VOTER_CHARS));
      }
    }
  }
  return lines;
}

/**
 * The language of a document. With running text, VOTERS of its sentences drawn evenly from
 * the whole document vote, each by its length: a paper's first lines are a journal's and
 * affiliations' names and often an abstract in a second language (a Brazilian journal's
 * Portuguese "Resumo" over an English article); what most of the text is written in
 * decides. With fewer than MIN_VOTERS sentences (a till receipt, a form), its first pages (and metadata) as they are.
 */
export function documentLanguage(pages: readonly string[], metadata?: string): Language {
  const lines = sentenceLines([...pages, metadata ?? '']);
  if (lines.length < MIN_VOTERS)
    return detectLanguage([...pages.slice(0, 3), metadata ?? ''].join('\n'));
  const votes = new Map<Language, number>();
  const count = Math.min(VOTERS, lines.length);
  for (let i = 0; i < count; i++) {
    const line = lines[Math.floor(((i + 0.5) * lines.length) / count)];
    const language = detectLanguage(line);
    votes.set(language, (votes.get(language) ?? 0) + line.length);
  }
  let best: Language = 'en';
  let most = -1;
  // LANGUAGES' order only breaks exact ties of summed lengths, which real text never has.
  for (const language of LANGUAGES) {
    const weight = votes.get(language) ?? 0;
    if (weight > most) [best, most] = [language, weight];
  }
  return best;
}

/** Loads the language model, stemmers and every lexicon bridge now (worker warm-up). */
export function warmUpAnalysis(): void {
  for (const language of LANGUAGES) analyzeText('Rechnung 1', true, language);
  documentLanguage(['Facture numéro 1 du 12/03/2024']);
}
