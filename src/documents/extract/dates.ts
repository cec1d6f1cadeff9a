/**
 * Dates as documents write them, to ISO 8601 (yyyy-mm-dd): numeric dates in any order and
 * separator, and dates with month names in the languages docproc reads. Month names come
 * from the runtime's CLDR data (Intl.DateTimeFormat), not from lists kept here.
 */

import { readInCalendar } from './calendars.js';

/**
 * Locales whose month names are recognised: the languages of classification, and the
 * languages of other scripts whose long dates put the day, the month's name and the year
 * in that order (Russian, Ukrainian, Greek, Arabic, Hindi, Hebrew, Thai). Chinese,
 * Japanese and Korean dates are read by their marks (MARKED_DATE_LOCALES).
 */
export const DATE_LOCALES = [
  'en',
  'de',
  'fr',
  'es',
  'it',
  'nl',
  'pt',
  'pl',
  'ru',
  'uk',
  'el',
  'ar',
  'hi',
  'he',
  'th',
] as const;

/** Day-first or month-first, for numeric dates whose first two parts are both <= 12. */
export type DateOrder = 'dmy' | 'mdy';

interface FoundDate {
  iso: string;
  /** Where in the text the date was read, and how long it was. */
  index: number;
  length: number;
  /** A numeric date that reads as a valid date both day-first and month-first. */
  ambiguous: boolean;
  /** The order it was read in, when it was numeric with day and month both possible. */
  order?: DateOrder;
}

/** Lower case without accents or a trailing dot: "Févr." -> "fevr". */
function fold(word: string): string {
  return spelled(word.normalize('NFD').replace(/\p{M}/gu, ''));
}

/**
 * Lower case without a trailing dot, marks kept: the vowel signs of some scripts tell months
 * apart that their letters alone do not ("ม.ค." is January, "มี.ค." March).
 */
function spelled(word: string): string {
  return word.normalize('NFC').toLowerCase().replace(/\.$/, '');
}

interface MonthNames {
  /** As spelled and as folded (a name printed without its accents), to 1..12. */
  spelled: Map<string, number>;
  folded: Map<string, number>;
  /** Names (as spelled) of a locale whose calendar numbers years otherwise: the offset. */
  yearOffsets: Map<string, number>;
}

let monthNames: MonthNames | undefined;

/**
 * How many years the locale's default calendar counts ahead of the Gregorian one, when it
 * numbers the same years otherwise (th: the Buddhist era, 2567 is 2024), else 0.
 */
function yearOffsetOf(locale: string): number {
  const date = new Date(Date.UTC(2020, 5, 15));
  const year = new Intl.DateTimeFormat(locale, { year: 'numeric', timeZone: 'UTC' })
    .formatToParts(date)
    .find((p) => p.type === 'year')?.value;
  const offset = year !== undefined && /^\d+$/.test(year) ? Number(year) - 2020 : 0;
  return Number.isFinite(offset) ? offset : 0;
}

/** Every locale's long, short and in-a-date (genitive) month names, to 1..12. */
function months(): MonthNames {
  if (monthNames) return monthNames;
  const names: MonthNames = { spelled: new Map(), folded: new Map(), yearOffsets: new Map() };
  for (const locale of DATE_LOCALES) {
    const offset = yearOffsetOf(locale);
    const learn = (name: string, month: number) => {
      const [asSpelled, asFolded] = [spelled(name), fold(name)];
      if (!names.folded.has(asFolded)) names.folded.set(asFolded, month);
      if (names.spelled.has(asSpelled)) return;
      names.spelled.set(asSpelled, month);
      if (offset !== 0) names.yearOffsets.set(asSpelled, offset);
    };
    const formats = [
      new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' }),
      new Intl.DateTimeFormat(locale, { month: 'short', timeZone: 'UTC' }),
      new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', timeZone: 'UTC' }),
      new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }),
    ];
    for (let month = 0; month < 12; month++) {
      const date = new Date(Date.UTC(2020, month, 15));
      for (const format of formats) {
        const parts = format.formatToParts(date);
        const at = parts.findIndex((p) => p.type === 'month');
        if (at < 0) continue;
        const name = spelled(parts[at].value);
        learn(name, month + 1);
        // The first four letters ("sept", "janv") are a common abbreviation too.
        if (fold(name).length > 4) learn(fold(name).slice(0, 4), month + 1);
        // Letters a date joins to the month's name ("19 במרץ 2024": "ב", "in").
        const joined = /[\p{L}\p{M}]+$/u.exec(parts[at - 1]?.value ?? '');
        if (joined) learn(joined[0] + name, month + 1);
      }
    }
  }
  monthNames = names;
  return names;
}

/** 1..12 for a month name or abbreviation in any of DATE_LOCALES, else undefined. */
export function monthNumber(word: string): number | undefined {
  const { spelled: bySpelling, folded } = months();
  return bySpelling.get(spelled(word)) ?? folded.get(fold(word));
}

function fullYear(year: string): number {
  const n = Number(year);
  if (year.length === 4) return n;
  return n < 70 ? 2000 + n : 1900 + n;
}

/**
 * The Gregorian year of a date written with `monthWord`: a month named in a locale whose
 * calendar counts years ahead (Thai) takes the year in that calendar when that reading is
 * nearer the present ("2567" is 2024; "2024" stays 2024 in a Thai date written so).
 */
function yearWithMonth(monthWord: string, year: string): number {
  const written = fullYear(year.replace("'", ''));
  const offset = months().yearOffsets.get(spelled(monthWord)) ?? 0;
  if (offset === 0) return written;
  const now = new Date().getUTCFullYear();
  return Math.abs(written - offset - now) < Math.abs(written - now) ? written - offset : written;
}

function isoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1000 || year > 2999) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null;
  return date.toISOString().slice(0, 10);
}

// A month's name: letters and the marks some scripts write vowels with ("जुलाई"); two
// letters at least ("मई").
// A short name may have a point inside ("มี.ค.").
const LETTERS = '(?:[\\p{L}\\p{M}]{1,4}\\.[\\p{L}\\p{M}]{1,4}|[\\p{L}\\p{M}]{2,12})\\.?';
// Digits glued to letters before them ("HD03-04-06", "INV2020-01-05") are part of a code.
const ISO_DATE = /(?<![\p{L}\d])(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/gu;
const NUMERIC_DATE = /(?<![\p{L}\d.])(\d{1,2})\s?([-/.])\s?(\d{1,2})\2\s?(\d{4}|\d{2})(?![\d])/gu;
const DAY_MONTH_YEAR = new RegExp(
  `(?<!\\d)(\\d{1,2})(?:st|nd|rd|th|er|e|º|°)?\\.?(?:\\s+(?:de|day\\s+of)\\b)?[\\s\\-/]*(${LETTERS})(?:\\s+de\\b)?[\\s\\-/,]*(\\d{4}|'?\\d{2})(?!\\d)`,
  'gu',
);
const MONTH_DAY_YEAR = new RegExp(
  `(${LETTERS})\\s*(\\d{1,2})(?:st|nd|rd|th)?\\s*,?\\s*(\\d{4})(?!\\d)`,
  'gu',
);

/** Locales whose long dates put a word after the year, the month and the day ("2026年3月12日"). */
const MARKED_DATE_LOCALES = ['zh', 'ja', 'ko'] as const;

let markedDates: RegExp | undefined;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Year, month and day each followed by its word, as the locales above write a long date:
 * the words are CLDR's (Intl.DateTimeFormat), read from a formatted date.
 */
function markedDatePattern(): RegExp {
  if (markedDates) return markedDates;
  const sources = new Set<string>();
  for (const locale of MARKED_DATE_LOCALES) {
    const format = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
    const written = format.format(new Date(Date.UTC(2020, 0, 15)));
    if ((written.match(/\d+/g) ?? []).join(' ') !== '2020 1 15') continue;
    const [, afterYear, afterMonth, afterDay] = written.split(/\d+/).map((w) => escape(w.trim()));
    if (!afterYear || !afterMonth) continue;
    sources.add(
      `(?<!\\d)(\\d{4})\\s*${afterYear}\\s*(\\d{1,2})\\s*${afterMonth}\\s*(\\d{1,2})(?!\\d)\\s*(?:${afterDay})?`,
    );
  }
  // A runtime without these locales' data reads none (an empty pattern would match anywhere).
  markedDates = sources.size > 0 ? new RegExp([...sources].join('|'), 'gu') : /(?!)/gu;
  return markedDates;
}

/**
 * Every date written in `text`, in text order. Numeric dates whose first two parts could
 * each be the month are read in `order` (day-first when not given) and marked ambiguous;
 * `calendar` is the one the document numbers its dates in when not the Gregorian one.
 */
export function findDates(text: string, order: DateOrder = 'dmy', calendar?: string): FoundDate[] {
  const found: FoundDate[] = [];
  const taken: [number, number][] = [];
  const add = (match: RegExpExecArray, iso: string | null, extra: Partial<FoundDate> = {}) => {
    if (!iso) return;
    const start = match.index;
    const end = start + match[0].length;
    if (taken.some(([s, e]) => start < e && end > s)) return;
    taken.push([start, end]);
    found.push({ iso, index: start, length: match[0].length, ambiguous: false, ...extra });
  };
  const numeric = (year: string, month: number, day: number) =>
    readInCalendar(calendar, isoDate(fullYear(year), month, day), year, month, day);
  for (const m of text.matchAll(ISO_DATE)) add(m, numeric(m[1], +m[2], +m[3]));
  for (const m of text.matchAll(markedDatePattern())) {
    const [year, month, day] = m.slice(1).filter((part) => part !== undefined);
    add(m, isoDate(+year, +month, +day));
  }
  for (const m of text.matchAll(NUMERIC_DATE)) {
    const first = +m[1];
    const second = +m[3];
    const dayFirst = numeric(m[4], second, first);
    const monthFirst = numeric(m[4], first, second);
    if (dayFirst && monthFirst && dayFirst !== monthFirst) {
      add(m, order === 'dmy' ? dayFirst : monthFirst, { ambiguous: true, order });
    } else {
      add(m, dayFirst ?? monthFirst, dayFirst ? { order: 'dmy' } : { order: 'mdy' });
    }
  }
  for (const m of text.matchAll(DAY_MONTH_YEAR)) {
    const month = monthNumber(m[2]);
    if (month) add(m, isoDate(yearWithMonth(m[2], m[3]), month, +m[1]));
  }
  for (const m of text.matchAll(MONTH_DAY_YEAR)) {
    const month = monthNumber(m[1]);
    if (month) add(m, isoDate(yearWithMonth(m[1], m[3]), month, +m[2]));
  }
  return found.sort((a, b) => a.index - b.index);
}

/** Dates the text writes with a month's name, as yyyy-mm-dd. */
function namedDates(text: string): Set<string> {
  const named = new Set<string>();
  for (const m of text.matchAll(DAY_MONTH_YEAR)) {
    const month = monthNumber(m[2]);
    const iso = month && isoDate(yearWithMonth(m[2], m[3]), month, +m[1]);
    if (iso) named.add(iso);
  }
  for (const m of text.matchAll(MONTH_DAY_YEAR)) {
    const month = monthNumber(m[1]);
    const iso = month && isoDate(yearWithMonth(m[1], m[3]), month, +m[2]);
    if (iso) named.add(iso);
  }
  return named;
}

/**
 * The order in which more of the text's two-way numeric dates restate one of its dates
 * with a month's name, if one order does.
 */
function agreeingOrder(text: string): DateOrder | undefined {
  let named: Set<string> | undefined;
  let dmy = 0;
  let mdy = 0;
  for (const m of text.matchAll(NUMERIC_DATE)) {
    const year = fullYear(m[4]);
    const dayFirst = isoDate(year, +m[3], +m[1]);
    const monthFirst = isoDate(year, +m[1], +m[3]);
    if (!dayFirst || !monthFirst || dayFirst === monthFirst) continue;
    named ??= namedDates(text);
    if (named.has(dayFirst)) dmy++;
    if (named.has(monthFirst)) mdy++;
  }
  if (dmy === mdy) return undefined;
  return dmy > mdy ? 'dmy' : 'mdy';
}

/**
 * The order a document writes its numeric dates in: the order of its unambiguous ones
 * (a 25/12 or 12/25), else the order in which its two-way ones restate its dates written
 * with a month's name, else of its dates with month names ("August 3, 2014" against
 * "3 August 2014"), else day-first, as most of the world writes them, unless the document
 * is English, writes slashes and counts in US dollars.
 */
export function documentDateOrder(
  text: string,
  language: string,
  currencies: ReadonlySet<string> = new Set(),
): DateOrder {
  let dmy = 0;
  let mdy = 0;
  let slashes = 0;
  for (const m of text.matchAll(NUMERIC_DATE)) {
    const first = +m[1];
    const second = +m[3];
    if (m[2] === '/') slashes++;
    if (first > 12 && second <= 12) dmy++;
    else if (second > 12 && first <= 12) mdy++;
  }
  if (dmy !== mdy) return dmy > mdy ? 'dmy' : 'mdy';
  // Numeric dates that restate a date the document writes with its month's name ("the
  // 5th day of February, 2020" signed "02-05-2020") are read in the order that agrees.
  const agreement = agreeingOrder(text);
  if (agreement) return agreement;
  // A document that writes "August 3, 2014" writes its numeric dates month-first too.
  const monthFirst = [...text.matchAll(MONTH_DAY_YEAR)].filter((m) => monthNumber(m[1])).length;
  const dayFirst = [...text.matchAll(DAY_MONTH_YEAR)].filter((m) => monthNumber(m[2])).length;
  if (monthFirst !== dayFirst) return monthFirst > dayFirst ? 'mdy' : 'dmy';
  return language === 'en' && slashes > 0 && currencies.has('USD') ? 'mdy' : 'dmy';
}

/**
 * Whether a found date agrees with the order the document writes its dates in: a numeric
 * date valid only in the other order ("11-22-31" on a day-first receipt) does not.
 */
export function inDocumentOrder(date: FoundDate, order: DateOrder): boolean {
  return !date.order || date.ambiguous || date.order === order;
}

/** The first date in `text` as yyyy-mm-dd, or null. */
export function parseDate(
  text: string,
  order: DateOrder = 'dmy',
  calendar?: string,
): string | null {
  return findDates(text, order, calendar)[0]?.iso ?? null;
}
