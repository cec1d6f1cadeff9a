/** What a whole document says about how it writes values: its language, dates, numbers. */
import { detectLanguage } from '../classify/language.js';
import type { LayoutLine } from '../parse/layout.types.js';
import { findAmounts, findCurrencies } from './amounts.js';
import { currencyReaderOf } from './currency-evidence.js';
import { documentCalendar } from './calendars.js';
import { DATE_LOCALES, documentDateOrder } from './dates.js';
import type { ValueContext } from './value-parsers.js';

export interface DocumentContext extends ValueContext {
  language: string;
  text: string;
  /**
   * The largest amount the document writes as money, with its cents or its currency: a bare
   * integer below it beside a total's label is a count of items or pages.
   */
  largestMoney?: number;
}

/** The most frequent of `values`, if any. */
function mostFrequent(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | undefined;
  let bestCount = 0;
  for (const [v, n] of counts) {
    if (n > bestCount) {
      best = v;
      bestCount = n;
    }
  }
  return best;
}

export function documentContext(lines: readonly LayoutLine[]): DocumentContext {
  const text = lines.map((l) => l.text).join('\n');
  const language = detectLanguage(text);
  // Two decimals after a comma ("34,73") against after a point ("34.73").
  const commas = (text.match(/\d,\d{2}(?!\d)/g) ?? []).length;
  const points = (text.match(/\d\.\d{2}(?!\d)/g) ?? []).length;
  const readCurrency = currencyReaderOf(text, language);
  const currencies = findCurrencies(text, readCurrency);
  const decimalComma = commas > points;
  const money = findAmounts(text, decimalComma, readCurrency)
    .filter((a) => a.decimals || a.currency !== undefined)
    .map((a) => Math.abs(a.value));
  return {
    text,
    language,
    dateOrder: documentDateOrder(text, language, new Set(currencies)),
    calendar: documentCalendar(text, DATE_LOCALES),
    decimalComma,
    currency: mostFrequent(currencies),
    ...(money.length > 0 ? { largestMoney: Math.max(...money) } : {}),
    readCurrency,
  };
}
