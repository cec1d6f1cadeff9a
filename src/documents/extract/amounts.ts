/**
 * Numbers, money and currencies as documents write them: decimal comma or point, thousands
 * separators (",", ".", spaces, apostrophes), negatives in parentheses or with a sign, and
 * currencies written next to them (symbols, codes and names, read by currency-table.ts).
 */

import { hasSpacelessScript } from '../classify/words.js';
import { currencyOf, ownSymbols } from './currency-table.js';

interface FoundAmount {
  value: number;
  /** ISO 4217 code of a currency written next to the number. */
  currency?: string;
  index: number;
  length: number;
  /** The number had a decimal part ("34,73", "9.00"). */
  decimals: boolean;
}

/**
 * Reads one written number: `decimalComma` says how a lone separator followed by three
 * digits ("1.250", "1,250") is read when nothing else decides it.
 */
export function readNumber(raw: string, decimalComma = false): number | null {
  let text = raw.replace(/[\s\u00a0\u202f']/g, '');
  if (!/^\d/.test(text)) return null;
  const lastComma = text.lastIndexOf(',');
  const lastDot = text.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    const decimal = lastComma > lastDot ? ',' : '.';
    const thousands = decimal === ',' ? '.' : ',';
    text = text.split(thousands).join('').replace(decimal, '.');
  } else if (lastComma >= 0 || lastDot >= 0) {
    const separator = lastComma >= 0 ? ',' : '.';
    const parts = text.split(separator);
    const tail = parts[parts.length - 1];
    const grouping = parts.length > 2 || (tail.length === 3 && parts[0].length <= 3);
    const isThousands =
      grouping && (parts.length > 2 || (separator === ',' ? !decimalComma : decimalComma));
    text = isThousands ? parts.join('') : `${parts.slice(0, -1).join('')}.${tail}`;
  }
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

const NUMBER = String.raw`\d{1,3}(?:[.,\s\u00a0\u202f']\d{3})+(?:[.,]\d{1,4})?|\d+(?:[.,]\d{1,4})?`;

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * Symbols of letters (of a cased script) as a currency's own countries write them ("zł",
 * "Kč", "kr", "RM", "Rs", "R"), longest first, as alternatives of a regular expression.
 * After an amount two letters or more: one is a unit ("3 L"). Before it, where no unit
 * stands, one letter too ("R 100") when one space alone parts it from the number (joined
 * to a digit it is a code's: "R1", "Q4"; at a line's end it is the line's), and in capitals
 * as a label in capitals writes them ("RS 50").
 */
function letterSymbols(): { before: string; after: string } {
  const byLength = (a: string, b: string) => b.length - a.length || a.localeCompare(b);
  const written = [...ownSymbols()].filter((symbol) => /^[\p{Lu}\p{Ll}]+\.?$/u.test(symbol));
  const letters = (symbol: string) => symbol.replace(/\.$/, '').length;
  const alternatives = (symbols: Iterable<string>) =>
    [...new Set(symbols)].sort(byLength).map(escaped).join('|');
  const several = written.filter((symbol) => letters(symbol) > 1);
  const single = written.filter((symbol) => letters(symbol) === 1);
  const capitals = several.map((symbol) => symbol.toUpperCase());
  return {
    before: String.raw`(?<!\p{L})(?:${alternatives([...several, ...capitals])})(?!\p{L})|(?<!\p{L})(?:${alternatives(single)})(?=[ \u00a0\u202f]-?\d)`,
    after: String.raw`(?:${alternatives(several)})(?!\p{L})`,
  };
}

let amountPattern: RegExp | undefined;

/** An amount with what may be written around it: see findAmounts for its groups. */
function amountRegExp(): RegExp {
  if (amountPattern) return amountPattern;
  const { before, after } = letterSymbols();
  amountPattern = new RegExp(
    String.raw`(\(?)(-?)\s*([\p{Sc}]|(?<!\p{L})[A-Z]{3}\b|(?<!\p{L})[\p{L}]{1,3}\$|${before})?\s*(-?)\s*(${NUMBER})(-?)\s*([\p{Sc}]|[A-Z]{3}\b|${after})?\)?`,
    'dgu',
  );
  return amountPattern;
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

function isWordCharacter(char: string | undefined): boolean {
  return char !== undefined && WORD_CHARACTER.test(char);
}

/**
 * A hyphen right before the number joins it to a word ("INV-42", "ABC-12", "2024-11") unless
 * what it follows is a currency ("EUR-3.00"): the number is then part of an identifier, and
 * the hyphen is no minus sign. A sign stands after the start, a space, a bracket, a currency
 * symbol or punctuation ("-42", "Total: -12.50", "€ -3,00", "balance -7").
 */
function joinsWord(text: string, m: RegExpMatchArray, currency: string | undefined): boolean {
  const indices = m.indices!;
  const hyphen = m[4] === '-' ? indices[4]![0] : m[2] === '-' ? indices[2]![0] : indices[5]![0] - 1;
  if (text[hyphen] !== '-') return false;
  if (currency && indices[3]?.[1] === hyphen) return false;
  return isWordCharacter(text[hyphen - 1]);
}

/**
 * A number sign as documents write it before an identifier ("Facture n° 2024-17", "Invoice
 * #4711", "Счёт № 17", "Rechnung Nr. 17", "Order No. 12"): what follows names a thing, it
 * counts or costs nothing. A lone lower-case "no" is the word no.
 */
const NUMBER_SIGN_BEFORE =
  /(?:#|\u2116|(?<!\p{L})(?:[Nn][\u00b0\u00ba]|N[Oo]\.?|no\.|N[Rr]\.?|nr\.?))[ \t\u00a0\u202f]*$/u;

/** Whether a text ends on a number sign ("Facture n°", "Invoice #", "Счёт №", "Nr."). */
export function endsOnNumberSign(text: string): boolean {
  return NUMBER_SIGN_BEFORE.test(text.replace(/[\s:：]+$/u, ''));
}

/**
 * Whether the number read at `start`..`end` is (part of) an identifier: after a number sign,
 * or joined by a hyphen or slash to more digits ("2024-17", "2024/17", "12/05/2024").
 */
function identifierNumber(text: string, start: number, end: number): boolean {
  if (NUMBER_SIGN_BEFORE.test(text.slice(Math.max(0, start - 12), start))) return true;
  if (/^[-/\u2010\u2011]\d/u.test(text.slice(end, end + 2))) return true;
  return /\d[/\u2010\u2011]$/u.test(text.slice(Math.max(0, start - 2), start));
}

/** Reads a currency's symbol, code or name as an ISO code (see currency-evidence.ts). */
export type CurrencyReader = (token: string) => string | undefined;

const WORD_AFTER = /^[ \u00a0\u202f]?([\p{L}\p{M}]+(?:\.(?=\P{L}|$))?)/u;
/** Longest currency name looked for at the start of a word of a script without spaces. */
const MAX_SPACELESS_NAME = 6;

/**
 * A currency's name or symbol written as a word right after an amount ("1,250円",
 * "1 250 руб.", "1,250 บาท", "100 Euro"): the currency and the characters it takes, or
 * undefined. In a script written without spaces the name may be the word's beginning.
 */
function currencyWordAfter(
  text: string,
  end: number,
  readCurrency: CurrencyReader,
): { currency: string; length: number } | undefined {
  const m = WORD_AFTER.exec(text.slice(end, end + 40));
  if (!m) return undefined;
  const word = m[1];
  // A letter or two of a cased script is a unit more often ("3 L", "12 km", "5 ft"); two
  // written as the currency's own countries write them ("kn", "TL") were read as a symbol.
  const letters = (word.match(/\p{L}/gu) ?? []).length;
  if (!/\p{Lo}/u.test(word) && letters < 3) return undefined;
  const space = m[0].length - word.length;
  const whole = readCurrency(word);
  if (whole) return { currency: whole, length: m[0].length };
  // In a script written without spaces a currency's name may run into the next word.
  const characters = [...word];
  if (!hasSpacelessScript(characters[0])) return undefined;
  for (let n = Math.min(MAX_SPACELESS_NAME, characters.length - 1); n >= 1; n--) {
    const prefix = characters.slice(0, n).join('');
    const currency = readCurrency(prefix);
    if (currency) return { currency, length: space + prefix.length };
  }
  return undefined;
}

/**
 * Every amount in `text`, with the currency written next to it, in text order; a symbol
 * several currencies share is read by `readCurrency` (the document's evidence).
 */
export function findAmounts(
  text: string,
  decimalComma = false,
  readCurrency: CurrencyReader = currencyOf,
): FoundAmount[] {
  const found: FoundAmount[] = [];
  for (const m of text.matchAll(amountRegExp())) {
    // Groups: 1 "(", 2 and 4 a sign before or after the currency, 3 currency before, 5 the
    // number, 6 a sign after it, 7 currency after.
    const value = readNumber(m[5], decimalComma);
    if (value === null) continue;
    const before = m[3] ? readCurrency(m[3]) : undefined;
    if (joinsWord(text, m, before)) continue;
    if (identifierNumber(text, m.indices![5]![0], m.indices![5]![1])) continue;
    // A code after a count ("2 CUP") is a unit more often than a currency.
    const after =
      m[7] && (!/^[A-Z]{3}$/.test(m[7]) || /[.,]\d{2}$/.test(m[5]))
        ? readCurrency(m[7])
        : undefined;
    // A currency written as a word after the number (a name, a symbol of letters).
    const word =
      !m[7] && !before && !m[0].endsWith(')')
        ? currencyWordAfter(text, m.index + m[0].length, readCurrency)
        : undefined;
    // A hyphen after the number followed by a letter or digit joins it to what follows.
    const trailingSign = m[6] === '-' && !isWordCharacter(text[m.indices![6]![1]]);
    const negative = m[1] === '(' || m[2] === '-' || m[4] === '-' || trailingSign;
    found.push({
      value: negative && value > 0 ? -value : value,
      currency: before ?? after ?? word?.currency,
      index: m.index,
      length: m[0].length + (word?.length ?? 0),
      decimals: /[.,]\d{1,2}$/.test(m[5].trim()) && !/[.,]\d{3}$/.test(m[5].trim()),
    });
  }
  return found;
}

/** The first number in `text` ("1.250,00 €" -> 1250, "(300.00)" -> -300), or null. */
export function parseNumber(text: string, decimalComma = false): number | null {
  return findAmounts(text, decimalComma)[0]?.value ?? null;
}

/** A percentage ("19 %", "7,5%") as the number written (19, 7.5), or null. */
export function parsePercentage(text: string, decimalComma = false): number | null {
  const m = /(-?\d+(?:[.,]\d+)?)\s*%/.exec(text);
  return m ? readNumber(m[1].replace(/^-/, ''), decimalComma) : null;
}

/**
 * Currencies a text's amounts are in, as ISO codes in order: a code or symbol written next
 * to a number ("RM 9.00", "12,00 €"), and currency signs (the Unicode class) anywhere. A
 * three-letter word elsewhere ("SDN BHD", "CUP") is not taken for a code.
 */
export function findCurrencies(text: string, readCurrency: CurrencyReader = currencyOf): string[] {
  const found: string[] = [];
  for (const amount of findAmounts(text, false, readCurrency))
    if (amount.currency) found.push(amount.currency);
  for (const m of text.matchAll(/\p{Sc}/gu)) {
    const code = readCurrency(m[0]);
    if (code) found.push(code);
  }
  return found;
}
