/**
 * Words written as one that are two ("Kundennummer", "Factuurnummer", "Fakturanummer"):
 * languages that write compounds closed put the label's noun and its head in one word, so
 * a rule reading a label's words apart ("Kunden-Nr.") does not see them. A word is split
 * where the encoder's own tokenizer reads it more probably as two words than as one: its
 * unigram model learned the words of the encoder's languages from running text, so a
 * compound's parts are each a frequent word ("kunden", "nummer") while a simple word is
 * likelier whole ("customer", "document", "quotation"). No list of words or linking
 * letters is written here, for any language.
 */
import type { SentenceEncoder } from '../encoder/sentence-encoder.js';

/** Parts shorter than this are endings or linking letters, not words. */
const SHORTEST_PART = 3;

const cache = new Map<string, string[]>();

/**
 * The two words a word is compounded of, in order ("kundennummer" -> "kunden", "nummer"),
 * or the word alone when it reads likelier as one word.
 */
export function compoundParts(word: string, encoder: SentenceEncoder): string[] {
  const known = cache.get(word);
  if (known) return known;
  let best: { parts: string[]; logProbability: number } = {
    parts: [word],
    logProbability: encoder.wordLogProbability(word),
  };
  if (/^\p{L}+$/u.test(word)) {
    const letters = Array.from(word);
    for (let at = SHORTEST_PART; at <= letters.length - SHORTEST_PART; at++) {
      const parts = [letters.slice(0, at).join(''), letters.slice(at).join('')];
      const logProbability = parts.reduce((sum, p) => sum + encoder.wordLogProbability(p), 0);
      if (logProbability > best.logProbability) best = { parts, logProbability };
    }
  }
  // Bounded: labels repeat across requests, the process lives long.
  if (cache.size >= 10_000) cache.clear();
  cache.set(word, best.parts);
  return best.parts;
}
