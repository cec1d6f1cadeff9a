/** Turning text found next to a label into a value of the schema's type. */

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

function monthOf(name: string): number | undefined {
  const lower = name.toLowerCase().replace(/\.$/, '');
  const index = MONTHS.findIndex((m) => m === lower || (lower.length >= 3 && m.startsWith(lower)));
  return index === -1 ? undefined : index + 1;
}

function iso(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null;
  return date.toISOString().slice(0, 10);
}

/**
 * An ISO date (yyyy-mm-dd) from common written forms: 2026-03-05, 03/05/2026 (US
 * month first), 05.03.2026 (day first), 5 March 2026, March 5, 2026, Mar 5 2026.
 */
export function parseDate(text: string): string | null {
  const t = text.trim();
  let m = /(\d{4})-(\d{1,2})-(\d{1,2})/.exec(t);
  if (m) return iso(+m[1], +m[2], +m[3]);
  m = /(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(t);
  if (m) return iso(+m[3], +m[1], +m[2]);
  m = /(\d{1,2})\.(\d{1,2})\.(\d{4})/.exec(t);
  if (m) return iso(+m[3], +m[2], +m[1]);
  m = /(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]{3,9}\.?),?\s+(\d{4})/.exec(t);
  if (m && monthOf(m[2])) return iso(+m[3], monthOf(m[2]) as number, +m[1]);
  m = /([A-Za-z]{3,9}\.?)\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})/.exec(t);
  if (m && monthOf(m[1])) return iso(+m[3], monthOf(m[1]) as number, +m[2]);
  return null;
}

/** A number from "1,250.00", "$1,250.00", "1250 USD", "(300.00)" (negative), "12%". */
export function parseNumber(text: string): number | null {
  const m = /(\(?)-?\s*[$€£¥]?\s*(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)\s*\)?/.exec(text);
  if (!m) return null;
  const value = Number(m[2].replace(/,/g, ''));
  if (!Number.isFinite(value)) return null;
  const negative = m[1] === '(' || /^\s*-/.test(text.slice(m.index));
  return negative && value > 0 ? -value : value;
}

export function parseBoolean(text: string, lenient: boolean): boolean | null {
  const t = text.trim().toLowerCase();
  if (['yes', 'true'].includes(t)) return true;
  if (['no', 'false'].includes(t)) return false;
  if (lenient) {
    if (['y', 'x', '[x]', '✓', '✔', 'checked', 'on'].includes(t)) return true;
    if (['n', '[ ]', 'unchecked', 'off', 'none'].includes(t)) return false;
  }
  return null;
}
