/**
 * A label qualified by an initialism that names another thing than the field ("PO No." for
 * an invoice number: a purchase order's number) is no evidence for that field, when the
 * label fits no field of the schema well, or when the initialism is all it says of what its
 * number belongs to ("PO Number"), unless it names the field outright or says one of the
 * field's own words besides ("Total TTC" for a total). An initialism is read by its
 * spelling (capitals in a label written in lower case too, letters with points: "P.O.", or
 * two or three capitals before the identifier's word alone: "PO #"); an initialism's last
 * letter is its head word's first ("PO": purchase order), as English compounds end on
 * their head. Nothing here is written for a field or a kind of document.
 */
import { LANGUAGES, stopwordsOf, type Language } from '../classify/language.js';
import { currencyOf } from './currency-table.js';
import type { Scored } from './field-search.js';
import { descriptionHead, FUNCTION_WORDS, humanize, normalize, stem } from './text-match.js';
import { IDENTIFIER_WORDS } from './value-parsers.js';

/** A label fitting some field of the schema at least this well is left to the search. */
const FITS_A_FIELD = 0.5;
/**
 * At or above this a label names the field outright (label-owners.ts): no initialism
 * overrules it. Below it, a label qualified by nothing but an initialism that cannot name
 * the field is withheld however well the encoder fits it ("PO Number": 0.65 for a
 * customer number, a number like any other to the encoder).
 */
const NAMES_FIELD = 0.95;

/** Capitals alone ("PO", "VAT") or letters each with a point ("P.O."), as written. */
const INITIALISM = /(?<![\p{L}\p{N}])(?:\p{Lu}{2,4}|(?:\p{L}\.){2,4})(?![\p{L}\p{N}])/gu;
const DOTTED = /(?<![\p{L}\p{N}])(?:\p{L}\.){2,4}/u;

/**
 * How the initialisms of `label` are told from its words: letters with points are one
 * ("P.O. #"), and capitals are one in a label written in lower case too ("PO Number");
 * in a label in capitals alone only its first word, of two or three letters, when the label
 * ends on the identifier's own word ("PO #", "GST NO.", "VAT REG NO"): a word there names
 * what the number belongs to, and a short one is read as letters, the others as words.
 */
function toldFromWords(label: string, language: string): 'all' | 'first' | 'none' {
  if (DOTTED.test(label) || /\p{Ll}/u.test(label.replace(INITIALISM, ''))) return 'all';
  const words = normalize(label).split(' ');
  return words.length >= 2 &&
    /^\p{L}{2,3}$/u.test(words[0]) &&
    !isFunctionWord(words[0], language) &&
    IDENTIFIER_WORDS.has(words[words.length - 1])
    ? 'first'
    : 'none';
}

/** Function words of other languages shorter than this are initialisms as often ("PO", "CO"). */
const SHORTEST_OTHER_FUNCTION_WORD = 3;

/**
 * Whether a word is a function word of English (the language field names are written in)
 * or, of three letters or more, of the document's language (stopwords-iso): "OUR" of "OUR
 * REF NO" is the word our, as "Our Ref No" writes it. A dictionary would not tell: WordNet
 * lists "vat" and "po" as nouns, initialisms in "VAT NO" and "PO NO"; stopwords-iso's
 * English list holds every country code ("GB", "EU"), its Polish and Italian lists "po" and
 * "co", so English counts its closed classes alone and other languages their longer words.
 */
export function isFunctionWord(word: string, language: string): boolean {
  if (FUNCTION_WORDS.has(word)) return true;
  if (language === 'en' || word.length < SHORTEST_OTHER_FUNCTION_WORD) return false;
  return (LANGUAGES as readonly string[]).includes(language)
    ? stopwordsOf(language as Language).has(word)
    : false;
}

/**
 * The initialisms of a label, lower-cased without points ("P.O. No." -> "po"); `language`
 * is the document's (ISO 639-1), whose function words a label in capitals writes as words.
 */
export function initialismsOf(label: string, language = 'en'): string[] {
  const told = toldFromWords(label, language);
  if (told === 'none') return [];
  const found: string[] = [];
  for (const [written] of label.matchAll(INITIALISM)) {
    const letters = written.replace(/\./g, '').toLowerCase();
    // A currency ("Total RM") or the identifier's own word ("ID", "NO", "REF") qualifies nothing.
    if (currencyOf(written) === undefined && !IDENTIFIER_WORDS.has(letters)) found.push(letters);
    if (told === 'first') break;
  }
  return found;
}

/** The words of a field's name and title that say what it belongs to ("invoice" of "invoice number"). */
function qualifiersOf(scored: Scored): string[] {
  const { name, title } = scored.field.text;
  return normalize(`${humanize(name)} ${title ?? ''}`)
    .split(' ')
    .filter((w) => w.length > 1 && !IDENTIFIER_WORDS.has(w));
}

/**
 * Whether an initialism may name the field: it is one of the field's words, or begins one
 * ("INV" of "invoice"), or its head letter begins one ("PO" for an order number).
 */
function mayName(initialism: string, qualifiers: readonly string[]): boolean {
  const head = initialism[initialism.length - 1];
  return qualifiers.some(
    (word) => word === initialism || word.startsWith(initialism) || word.startsWith(head),
  );
}

/** A label's words other than its initialisms, the identifier's and function words. */
function wordsBesides(label: string, initialisms: readonly string[], language: string): string[] {
  const rest = label.replace(INITIALISM, (written) =>
    initialisms.includes(written.replace(/\./g, '').toLowerCase()) ? ' ' : written,
  );
  return normalize(rest)
    .split(' ')
    .filter(
      (word) => word !== '' && !IDENTIFIER_WORDS.has(word) && !isFunctionWord(word, language),
    );
}

/**
 * Whether a label says nothing besides its initialisms and the identifier's word ("PO
 * Number", "P.O. #"): what the number belongs to is then the initialism alone. "Total
 * TTC" says "total" in a word, and the initialism only qualifies it.
 */
function onlyInitialismsQualify(
  label: string,
  initialisms: readonly string[],
  language: string,
): boolean {
  return wordsBesides(label, initialisms, language).length === 0;
}

/**
 * Whether a word of the label besides its initialisms is one of the field's own (its name,
 * title or description's head): "Total TTC" for an amount described as "The total amount of
 * the invoice" is a total the initialism qualifies, not another thing the initialism names.
 */
function qualifiesFieldWord(
  label: string,
  initialisms: readonly string[],
  scored: Scored,
  language: string,
): boolean {
  const { name, title, description } = scored.field.text;
  const own = `${humanize(name)} ${title ?? ''} ${descriptionHead(description ?? '')}`;
  const fieldWords = new Set(normalize(own).split(' ').map(stem));
  return wordsBesides(label, initialisms, language).some((word) => fieldWords.has(stem(word)));
}

/**
 * The labels withheld from each field (by field key) because an initialism in them names
 * another thing than the field: when no field of the schema fits them at FITS_A_FIELD, or
 * when the initialism is all the label says of what its number belongs to and the label
 * does not name the field outright. `language` is the document's.
 */
export function labelsNamingOtherThings(
  ranked: ReadonlyMap<string, Scored[]>,
  language = 'en',
): Map<string, Set<string>> {
  const bestFit = new Map<string, number>();
  for (const scored of ranked.values())
    for (const s of scored)
      bestFit.set(s.candidate.label, Math.max(bestFit.get(s.candidate.label) ?? 0, s.labelScore));
  const withheld = new Map<string, Set<string>>();
  for (const [field, scored] of ranked) {
    for (const s of scored) {
      const label = s.candidate.label;
      const initialisms = initialismsOf(label, language);
      if (initialisms.length === 0) continue;
      const fits = (bestFit.get(label) ?? 0) >= FITS_A_FIELD;
      const overruled =
        s.labelScore < NAMES_FIELD && onlyInitialismsQualify(label, initialisms, language);
      if (fits && !overruled) continue;
      const qualifiers = qualifiersOf(s);
      if (qualifiers.length === 0) continue;
      if (qualifiesFieldWord(label, initialisms, s, language)) continue;
      if (initialisms.every((initialism) => mayName(initialism, qualifiers))) continue;
      withheld.set(field, (withheld.get(field) ?? new Set<string>()).add(label));
    }
  }
  return withheld;
}
