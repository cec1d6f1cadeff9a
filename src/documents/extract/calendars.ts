/**
 * Dates a document numbers in another calendar than the Gregorian one ("31/12/2567" in a
 * Thai document is 2024-12-31 in the Buddhist era), to ISO 8601. The calendar is the one
 * the document's locale uses by default, and the conversion is the runtime's (Intl's CLDR
 * calendars): nothing here is written for a calendar.
 */
const GREGORIAN = new Set(['gregory', 'iso8601']);
const DAY_MS = 86_400_000;

interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const formats = new Map<string, Intl.DateTimeFormat | null>();

/** A formatter of dates in `calendar` with Latin digits, or null if the runtime has none. */
function formatIn(calendar: string): Intl.DateTimeFormat | null {
  if (!formats.has(calendar)) {
    let format: Intl.DateTimeFormat | null;
    try {
      format = new Intl.DateTimeFormat(`en-u-ca-${calendar}-nu-latn`, {
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        timeZone: 'UTC',
      });
      if (format.resolvedOptions().calendar !== calendar) format = null;
    } catch {
      format = null;
    }
    formats.set(calendar, format);
  }
  return formats.get(calendar) ?? null;
}

/** The day `time` is in `calendar`, or undefined when its month has no number (a leap month). */
function dateIn(format: Intl.DateTimeFormat, time: number): CalendarDate | undefined {
  const parts = format.formatToParts(new Date(time));
  const value = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const date = { year: value('year'), month: value('month'), day: value('day') };
  return Number.isInteger(date.year) && Number.isInteger(date.month) && Number.isInteger(date.day)
    ? date
    : undefined;
}

/** Steps of the search for a day: each step lands within a few days of the one before. */
const MAX_STEPS = 12;

/**
 * The Gregorian date (yyyy-mm-dd) of a day written in `calendar`, or null when the calendar
 * has no such day or the runtime does not know it: the day is searched by formatting
 * Gregorian days in the calendar, from an estimate by the calendar's mean year.
 */
export function gregorianOf(
  calendar: string,
  year: number,
  month: number,
  day: number,
): string | null {
  const format = formatIn(calendar);
  if (!format || month < 1 || month > 13 || day < 1 || day > 31) return null;
  const anchor = Date.UTC(2000, 0, 1);
  const start = dateIn(format, anchor);
  const century = dateIn(format, Date.UTC(2100, 0, 1));
  if (!start || !century || century.year === start.year) return null;
  const yearDays = 36_525 / (century.year - start.year);
  const daysBetween = (from: CalendarDate) =>
    (year - from.year) * yearDays + (month - from.month) * (yearDays / 12) + (day - from.day);
  let time = anchor + Math.round(daysBetween(start)) * DAY_MS;
  for (let step = 0; step < MAX_STEPS; step++) {
    const found = dateIn(format, time);
    if (!found) return null;
    if (found.year === year && found.month === month && found.day === day) {
      const iso = new Date(time).toISOString().slice(0, 10);
      return /^\d{4}-/.test(iso) ? iso : null;
    }
    const days = Math.round(daysBetween(found));
    if (days === 0) return null;
    time += days * DAY_MS;
  }
  return null;
}

interface ScriptLocale {
  letters: RegExp;
  calendar: string;
}

const scriptLocales = new Map<string, ScriptLocale[]>();

/**
 * The scripts of `locales`, each with the default calendar of the locale CLDR takes as
 * likeliest for text in that script (Thai: th-TH, the Buddhist era).
 */
function scriptsWithCalendars(locales: readonly string[]): ScriptLocale[] {
  const key = locales.join(' ');
  const known = scriptLocales.get(key);
  if (known) return known;
  const found = new Map<string, ScriptLocale>();
  for (const locale of locales) {
    try {
      const script = new Intl.Locale(locale).maximize().script;
      if (!script || found.has(script)) continue;
      const likely = new Intl.Locale(`und-${script}`).maximize();
      const calendar = new Intl.DateTimeFormat(likely.baseName).resolvedOptions().calendar;
      found.set(script, { letters: new RegExp(`\\p{Script=${script}}`, 'gu'), calendar });
    } catch {
      continue;
    }
  }
  const scripts = [...found.values()];
  scriptLocales.set(key, scripts);
  return scripts;
}

/** Characters of a document looked at for its script. */
const SAMPLE_CHARS = 4000;

/**
 * The calendar a document numbers its dates in, when not the Gregorian one: that of the
 * script (among those of `locales`) most of its letters are written in, when they are more
 * than half of them.
 */
export function documentCalendar(text: string, locales: readonly string[]): string | undefined {
  const sample = text.slice(0, SAMPLE_CHARS);
  const letters = (sample.match(/\p{L}/gu) ?? []).length;
  if (letters === 0) return undefined;
  let best: ScriptLocale | undefined;
  let bestCount = 0;
  for (const script of scriptsWithCalendars(locales)) {
    const count = (sample.match(script.letters) ?? []).length;
    if (count > bestCount) [best, bestCount] = [script, count];
  }
  if (!best || bestCount * 2 <= letters || GREGORIAN.has(best.calendar)) return undefined;
  return best.calendar;
}

/**
 * A numeric date as the document means it: in `calendar` when that reading of a four-digit
 * year is nearer the present than the Gregorian one ("2567" is 2024 in a Thai document;
 * "2024" stays 2024 there), else as written.
 */
export function readInCalendar(
  calendar: string | undefined,
  written: string | null,
  year: string,
  month: number,
  day: number,
): string | null {
  if (!calendar || year.length !== 4) return written;
  const converted = gregorianOf(calendar, Number(year), month, day);
  if (!converted) return written;
  if (!written) return converted;
  const now = new Date().getUTCFullYear();
  return Math.abs(Number(converted.slice(0, 4)) - now) < Math.abs(Number(year) - now)
    ? converted
    : written;
}
