/**
 * The one place a currency symbol several currencies share ("¥": yen and yuan; "$": the
 * dollars of the United States, Canada, Australia...; "kr": the Nordic crowns) is read
 * from what the document says, in this order:
 *  1. a currency among the symbol's readings named in the document by its ISO code, its
 *     name or a symbol of its own ("CAD", "人民币", "CA$");
 *  2. the countries the document names (an address): the currency their own locale writes
 *     with that symbol, when they agree;
 *  3. the document's language, or its script for Chinese, Japanese and Korean: the
 *     currency its locale writes with the symbol ("¥" in Chinese is the yuan);
 *  4. else the symbol's most common reading (currencyOf).
 * Symbols, names, countries and their locales all come from the runtime's CLDR data.
 *
 * A symbol of one letter before an amount ("R 12", "L 32", "S 12": a size or a row as
 * often) is read only where the document supports it besides the letter: steps 1-3 above,
 * or the same letter before another amount of the document.
 */
import { type CurrencyReader } from './amounts.js';
import { currencyCodes, currencyOf, foldSymbol, readingsOf, symbolIn } from './currency-table.js';
import { hanLanguage } from './han-language.js';

/**
 * The evidence is looked for in the document's opening characters: its letterhead, its
 * parties' addresses and its totals on a page or two; a long contract's later pages would
 * cost the search more than they tell.
 */
const EVIDENCE_CHARS = 6000;

/** Locales whose symbols and names are looked for as a reading's own (beside the document's). */
const NAMING_LOCALES = ['en'];

const displayNames = new Map<string, Intl.DisplayNames>();

/** CLDR's name of a currency or a region in `locale`, or undefined. */
function nameOf(locale: string, type: 'currency' | 'region', code: string): string | undefined {
  const key = `${type}:${locale}`;
  let names = displayNames.get(key);
  if (!names) {
    try {
      names = new Intl.DisplayNames(locale, { type, fallback: 'none' });
    } catch {
      return undefined;
    }
    displayNames.set(key, names);
  }
  const name = names.of(code);
  return name === code ? undefined : name;
}

/** Two-letter region codes CLDR names (ISO 3166 and a few more). */
let regionCodes: string[] | undefined;

function regions(): string[] {
  if (regionCodes) return regionCodes;
  const codes: string[] = [];
  for (let a = 65; a <= 90; a++)
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (nameOf('en', 'region', code)) codes.push(code);
    }
  regionCodes = codes;
  return codes;
}

/**
 * The likeliest locale of a language or a region ("zh" -> zh-CN, "und-CA" -> en-CA),
 * without the script: ICU formats "en-CA" as Canada does, and "en-Latn-CA" as English.
 */
function likelyLocale(tag: string): string | undefined {
  try {
    const { language, region } = new Intl.Locale(tag).maximize();
    return region ? `${language}-${region}` : language;
  } catch {
    return undefined;
  }
}

/** writtenIn's answers: a few symbols by a few hundred locales, for the process's life. */
const writtenInCache = new Map<string, string | null>();

/** The one reading of `symbol` that `locale` writes with exactly that symbol. */
function writtenIn(symbol: string, locale: string): string | undefined {
  const folded = foldSymbol(symbol);
  const key = `${folded}\u0000${locale}`;
  const known = writtenInCache.get(key);
  if (known !== undefined) return known ?? undefined;
  const matching = [...readingsOf(symbol)].filter((code) => {
    const own = symbolIn(locale, code);
    return own !== undefined && foldSymbol(own) === folded;
  });
  const code = matching.length === 1 ? matching[0] : undefined;
  if (writtenInCache.size < 10_000) writtenInCache.set(key, code ?? null);
  return code;
}

/**
 * The language a text's script says, for the scripts the language detector does not read;
 * Han characters without kana by the characters themselves (han-language.ts).
 */
function languageOfScript(text: string, detected: string): string {
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return 'ja';
  if (/\p{Script=Hangul}/u.test(text)) return 'ko';
  if (/\p{Script=Han}/u.test(text)) return hanLanguage(text);
  return detected;
}

/** A document's opening as searched: folded, and its words with their endings cut. */
interface Searched {
  folded: string;
  /** Every word, and the word less its last one or two letters ("dollars": "dollar"). */
  words: Set<string>;
}

function searchedOf(text: string): Searched {
  const folded = searchable(text);
  const words = new Set<string>();
  for (const word of folded.split(/[^\p{L}\p{N}]+/u)) {
    if (word === '') continue;
    for (let cut = 0; cut <= INFLECTION && word.length - cut > 0; cut++)
      words.add(word.slice(0, word.length - cut));
  }
  return { folded, words };
}

/** Folded for searching: compatibility forms, case and marks dropped. */
function searchable(text: string): string {
  return ` ${text
    .normalize('NFKC')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')} `;
}

const foldedPhrases = new Map<string, string>();

/** A name or symbol as searched for: CLDR's few thousand, folded once for the process. */
function foldedPhrase(phrase: string): string {
  let folded = foldedPhrases.get(phrase);
  if (folded === undefined) {
    folded = searchable(phrase).trim();
    if (foldedPhrases.size < 20_000) foldedPhrases.set(phrase, folded);
  }
  return folded;
}

/** Letters a name may take at its end in the running text ("dollars", "kroner"). */
const INFLECTION = 2;

/**
 * Whether `folded` (see searchable) holds `phrase` as whole words, inflected by a letter
 * or two at its end (anywhere in the text, for CJK scripts).
 */
function mentions(searched: Searched, phrase: string): boolean {
  const wanted = foldedPhrase(phrase);
  if (wanted === '') return false;
  // Most names are not in the document: one look-up of their first word rules them out.
  if (/^[\p{L}\p{N} ]+$/u.test(wanted) && !searched.words.has(wanted.split(' ')[0])) return false;
  const { folded } = searched;
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(wanted))
    return folded.includes(wanted);
  let at = folded.indexOf(wanted);
  while (at >= 0) {
    const startsWord = !/[\p{L}\p{N}]/u.test(folded[at - 1] ?? ' ');
    const rest = folded.slice(at + wanted.length);
    // A name ending in a letter may be inflected ("dollars"); a symbol or code may not.
    const endsWord = /\p{L}$/u.test(wanted)
      ? /^\p{L}{0,2}(?![\p{L}\p{N}])/u.test(rest.slice(0, INFLECTION + 1))
      : !/^[\p{L}\p{N}]/u.test(rest);
    if (startsWord && endsWord) return true;
    at = folded.indexOf(wanted, at + 1);
  }
  return false;
}

/** ISO codes written as words, not after a count ("2 CUP" is a unit, "2.00 CAD" money). */
function codesWritten(text: string): Set<string> {
  const codes = new Set<string>();
  for (const m of text.matchAll(/(?<![\p{L}\p{N}])([A-Z]{3})(?![\p{L}\p{N}])/gu)) {
    const before = text.slice(Math.max(0, m.index - 12), m.index);
    if (/(?<![.,\d])\d+\s*$/.test(before)) continue;
    if (currencyCodes().has(m[1])) codes.add(m[1]);
  }
  return codes;
}

/**
 * The reading named by its code, name or a symbol of its own, when one alone is; the
 * symbol being read is not its own evidence ("R" of "R 12" names nothing).
 */
function namedReading(
  symbol: string,
  readings: ReadonlySet<string>,
  searched: Searched,
  codes: ReadonlySet<string>,
  language: string,
): string | undefined {
  const named = [...readings].filter((code) => {
    if (codes.has(code)) return true;
    for (const locale of new Set([...NAMING_LOCALES, language])) {
      const name = nameOf(locale, 'currency', code);
      if (name && mentions(searched, name)) return true;
      const own = symbolIn(locale, code);
      const other = own !== undefined && foldSymbol(own) !== foldSymbol(symbol);
      if (other && readingsOf(own).size === 1 && mentions(searched, own)) return true;
    }
    return false;
  });
  return named.length === 1 ? named[0] : undefined;
}

/** The reading the countries the document names agree on, if they do. */
function countriesReading(
  symbol: string,
  searched: Searched,
  language: string,
): string | undefined {
  const found = new Set<string>();
  for (const region of regions()) {
    const named = [...new Set([...NAMING_LOCALES, language])].some((l) => {
      const name = nameOf(l, 'region', region);
      return name !== undefined && mentions(searched, name);
    });
    const locale = named ? likelyLocale(`und-${region}`) : undefined;
    const code = locale && writtenIn(symbol, locale);
    if (code) found.add(code);
  }
  return found.size === 1 ? [...found][0] : undefined;
}

/** A symbol of one letter of a cased script ("R", "L", "K"), with or without its point. */
const ONE_LETTER = /^[\p{Lu}\p{Ll}]\.?$/u;

/** Before-amount uses of a symbol that make it the document's own: this one and another. */
const LETTER_USES = 2;

/** How often `letter` stands before an amount in `text` ("R 12.00 … R 3.50"). */
function usesBeforeAmounts(text: string, letter: string): number {
  const before = new RegExp(
    String.raw`(?<!\p{L})${letter.replace('.', String.raw`\.`)}[ \u00a0\u202f]-?\d`,
    'gu',
  );
  return (text.match(before) ?? []).length;
}

/**
 * A reader of currencies for one document: `language` is the detected one (ISO 639-1).
 * Each shared symbol is decided once, when first read.
 */
export function currencyReaderOf(text: string, language: string): CurrencyReader {
  const read = new Map<string, string | undefined>();
  let evidence: { searched: Searched; codes: Set<string>; language: string } | undefined;
  const evidenceOf = () => {
    const opening = text.slice(0, EVIDENCE_CHARS);
    evidence ??= {
      searched: searchedOf(opening),
      codes: codesWritten(opening),
      language: languageOfScript(opening, language),
    };
    return evidence;
  };
  /** The document's reading of `token`, by what it names, its countries and its language. */
  const supported = (token: string, readings: ReadonlySet<string>) => {
    const { searched, codes, language: written } = evidenceOf();
    return (
      namedReading(token, readings, searched, codes, written) ??
      countriesReading(token, searched, written) ??
      writtenIn(token, likelyLocale(written) ?? written)
    );
  };
  const decide = (token: string): string | undefined => {
    const common = currencyOf(token);
    if (common === undefined) return undefined;
    const readings = readingsOf(token);
    if (ONE_LETTER.test(token)) {
      const own = supported(token, readings);
      if (own) return own;
      return usesBeforeAmounts(text, token) >= LETTER_USES ? common : undefined;
    }
    if (readings.size <= 1 || !readings.has(common)) return common;
    return supported(token, readings) ?? common;
  };
  return (token) => {
    if (!read.has(token)) read.set(token, decide(token));
    return read.get(token);
  };
}
