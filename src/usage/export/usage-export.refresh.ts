import type { UsageExportQuery } from './usage-export.query.js';
import { DEFAULT_TIME_ZONE } from '../core/time-zone.js';

/*
 * Bringing a cached export answer up to date after new usage: every row of the export is
 * one (local date, group) and depends only on that date's events, so the dates whose
 * events changed are read again and put in place of their old rows; every other row stays
 * (docs/decisions/0405-export-answers-refreshed-by-changed-day.md).
 */

/** How each row of the `data` text starts (the stores render it; a value's quotes are escaped). */
const ROW_START = '{"date":"';
const DATE_LENGTH = 10;
const DAY_MS = 86_400_000;

const addDays = (date: string, days: number) =>
  new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);

/** Dates [from, to] of the export to read again. */
export interface DateRange {
  from: string;
  to: string;
}

/**
 * The local dates of the period that the changed UTC days can touch: the UTC days
 * themselves in UTC, one day either side in another zone (offsets lie within -12 and +14
 * hours). Null when none lies within the period (the cached rows still hold); `whole` when
 * they span more than half of it (reading the period again costs about the same).
 */
export function refreshRange(
  query: UsageExportQuery,
  changedUtcDays: readonly string[],
): DateRange | 'whole' | null {
  if (changedUtcDays.length === 0) return null;
  const sorted = [...changedUtcDays].sort();
  const widen = query.timeZone === DEFAULT_TIME_ZONE ? 0 : 1;
  const first = addDays(sorted[0], -widen);
  const last = addDays(sorted[sorted.length - 1], widen);
  const from = first > query.startDate ? first : query.startDate;
  const to = last < query.endDate ? last : query.endDate;
  if (from > to) return null;
  const days = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / DAY_MS + 1;
  return days(from, to) * 2 > days(query.startDate, query.endDate) ? 'whole' : { from, to };
}

/**
 * `data` (rows ordered by date) with its rows dated within `range` replaced by `fresh`
 * (the same export's rows of those dates, in order); null when `data` is not rows as the
 * stores render them.
 */
export function spliceDates(data: string, range: DateRange, fresh: string): string | null {
  if (data !== '' && !data.startsWith(ROW_START)) return null;
  // From the end: a refresh is mostly of the latest dates, so few rows are looked at.
  let firstInRange = data.length;
  let firstAfter = data.length;
  let at = data.length;
  while (at > 0) {
    const start = data.lastIndexOf(ROW_START, at - 1);
    if (start < 0) break;
    const date = data.slice(start + ROW_START.length, start + ROW_START.length + DATE_LENGTH);
    if (date < range.from) break;
    if (date > range.to) firstAfter = start;
    firstInRange = start;
    at = start;
  }
  // Rows are joined by commas: the one before the first row replaced or kept after goes.
  const before =
    firstInRange === data.length ? data : firstInRange > 0 ? data.slice(0, firstInRange - 1) : '';
  const after = data.slice(firstAfter);
  return [before, fresh, after].filter((part) => part !== '').join(',');
}
