/**
 * Currency symbols, codes and names to ISO 4217, from the runtime's CLDR data
 * (Intl.NumberFormat, Intl.DisplayNames) and CLDR's own symbol lists, not from lists kept
 * here: what each symbol, code or name stands for, and every currency a shared symbol may be.
 */

import { cldrSymbols } from './cldr-currency-symbols.js';

/**
 * Locales whose currency symbols and names are learnt. The languages docproc reads plus
 * the locales whose own currency has a symbol found nowhere else (RM, kr, Kč, zł, ...).
 */
const CURRENCY_LOCALES = [
  'en',
  'en-IN',
  'de',
  'fr',
  'es',
  'it',
  'nl',
  'pt',
  'pt-BR',
  'pl',
  'ms',
  'sv',
  'da',
  'nb',
  'cs',
  'hu',
  'ro',
  'ru',
  'tr',
  'ja',
  'zh',
  'ko',
  'th',
  'id',
  'vi',
  'hi',
  'ar',
  'he',
  'uk',
  'bg',
  'el',
  'de-CH',
  'en-ZA',
  'en-NG',
  'fil',
];

/** A count of each plural form CLDR has (one, two, few, many, other; a fraction). */
const PLURAL_COUNTS = [1, 2, 3, 5, 1.5];

/** Counts that take each of `locale`'s plural forms, one count a form. */
function countsOfEachForm(locale: string): number[] {
  const rules = new Intl.PluralRules(locale);
  const seen = new Map<string, number>();
  for (const count of PLURAL_COUNTS) {
    const form = rules.select(count);
    if (!seen.has(form)) seen.set(form, count);
  }
  return [...seen.values()];
}

/** How `locale` names `code` after each count ("円" after a count of yen in ja). */
function countNames(locale: string, code: string, counts: readonly number[]): string[] {
  const format = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: code,
    currencyDisplay: 'name',
  });
  const names: string[] = [];
  for (const count of counts) {
    const name = format.formatToParts(count).find((p) => p.type === 'currency')?.value;
    if (name && name !== code) names.push(name);
  }
  return names;
}

let symbolTable: Map<string, string> | undefined;
let readingTable: Map<string, Set<string>> | undefined;
/** Symbols as a currency's own countries write them, exactly (see CldrSymbol.own). */
let ownSymbolSet: Set<string> | undefined;
let codeSet: Set<string> | undefined;

export function currencyCodes(): Set<string> {
  codeSet ??= new Set(Intl.supportedValuesOf('currency'));
  return codeSet;
}

/**
 * A symbol as compared: compatibility forms folded ("￥" is "¥"), marks and case dropped,
 * and an abbreviation's final point ("kr." is "kr").
 */
export function foldSymbol(text: string): string {
  return foldName(text.normalize('NFKC')).replace(/\.$/, '');
}

function foldName(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** How `locale` writes `code` ("¥" for CNY in zh, "CN¥" in en), or undefined. */
export function symbolIn(
  locale: string,
  code: string,
  display: 'symbol' | 'narrowSymbol' = 'symbol',
): string | undefined {
  try {
    const symbol = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: code,
      currencyDisplay: display,
    })
      .formatToParts(1)
      .find((p) => p.type === 'currency')?.value;
    return symbol === code ? undefined : symbol;
  } catch {
    return undefined;
  }
}

/**
 * Symbol (or name) -> ISO code. A symbol several currencies share goes to the one whose
 * English symbol it is ("$" -> USD, "£" -> GBP), else the first locale that uses it; every
 * currency a symbol is written for in some locale is kept too (see readingsOf).
 */
function symbols(): Map<string, string> {
  if (symbolTable) return symbolTable;
  const table = new Map<string, string>();
  const readings = new Map<string, Set<string>>();
  const codes = [...currencyCodes()];
  /** The currencies each locale writes with a symbol of their own (not their code). */
  const withSymbol = new Map<string, string[]>();
  const learn = (locale: string, display: 'symbol' | 'narrowSymbol') => {
    for (const code of codes) {
      const symbol = symbolIn(locale, code, display);
      if (!symbol) continue;
      if (display === 'symbol') withSymbol.set(locale, [...(withSymbol.get(locale) ?? []), code]);
      const key = foldName(symbol);
      if (!table.has(key)) table.set(key, code);
      const folded = foldSymbol(symbol);
      const shared = readings.get(folded) ?? new Set<string>();
      shared.add(code);
      readings.set(folded, shared);
    }
  };
  learn('en', 'symbol');
  for (const locale of CURRENCY_LOCALES) learn(locale, 'symbol');
  for (const locale of CURRENCY_LOCALES) learn(locale, 'narrowSymbol');
  for (const locale of CURRENCY_LOCALES) {
    const names = new Intl.DisplayNames(locale, { type: 'currency' });
    for (const code of codes) {
      const name = names.of(code);
      if (!name || name === code) continue;
      const key = foldName(name);
      if (!table.has(key)) table.set(key, code);
    }
  }
  // The name a locale writes after a count of a currency it has a symbol for ("1,250円"),
  // in each plural form ("български лев", "български лева"); the others' names as above.
  for (const locale of CURRENCY_LOCALES) {
    const counts = countsOfEachForm(locale);
    for (const code of withSymbol.get(locale) ?? [])
      for (const name of countNames(locale, code, counts))
        if (!table.has(foldName(name))) table.set(foldName(name), code);
  }
  // CLDR's symbols beyond Intl's ("TL", "грн", "руб."): a symbol Intl already gave keeps
  // its readings; a new one is read as the first currency listing it.
  const own = new Set<string>();
  for (const { symbol, code, own: isOwn } of cldrSymbols(new Set(codes))) {
    if (isOwn) own.add(symbol);
    const key = foldName(symbol);
    if (table.has(key) && table.get(key) !== code) continue;
    table.set(key, code);
    const folded = foldSymbol(symbol);
    readings.set(folded, (readings.get(folded) ?? new Set<string>()).add(code));
  }
  symbolTable = table;
  readingTable = readings;
  ownSymbolSet = own;
  return table;
}

/** Symbols as a currency's own countries write them, exactly (see CldrSymbol.own). */
export function ownSymbols(): ReadonlySet<string> {
  symbols();
  return ownSymbolSet!;
}

/**
 * Every currency a symbol is written for in some locale ("¥": JPY and CNY; "kr": SEK,
 * NOK, DKK, ISK); one code for a symbol no two currencies share, none for a code or name.
 */
export function readingsOf(symbol: string): ReadonlySet<string> {
  symbols();
  return readingTable!.get(foldSymbol(symbol)) ?? new Set();
}

/** The ISO 4217 code a symbol, code or currency name stands for, or undefined. */
export function currencyOf(text: string): string | undefined {
  const trimmed = text.trim();
  const upper = trimmed.toUpperCase();
  if (/^[A-Z]{3}$/.test(upper) && currencyCodes().has(upper)) return upper;
  return symbols().get(foldName(trimmed)) ?? symbols().get(foldName(trimmed.replace(/\.$/, '')));
}
