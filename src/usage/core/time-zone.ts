import { ApiError } from '../../common/api-error.js';

/*
 * Local days of an IANA time zone, as the export needs them: the zone's UTC offsets over a
 * period, from the runtime's time-zone database (Intl), so the stores never need one of their
 * own (ClickHouse 18.x and DuckDB would each bring a different tzdata). The stores add the
 * offset in force to each quarter-hour bucket and take the date: a local day is the buckets
 * whose local time falls on it, 23 or 25 hours at DST changes
 * (docs/decisions/0260-time-zones-from-quarter-hour-rollups.md).
 */

export const DEFAULT_TIME_ZONE = 'UTC';
/** Width of a rollup bucket: every offset and transition in use since 1980 is a multiple. */
export const BUCKET_SECONDS = 900;
/** Offsets range from UTC-12 to UTC+14: the buckets a local day can take lie within these. */
const MAX_BEHIND_MS = 12 * 3_600_000;
const MAX_AHEAD_MS = 14 * 3_600_000;
const DAY_MS = 86_400_000;

/** Offsets (seconds east of UTC) over time: `offsets[i]` holds before `transitions[i]` (epoch s). */
export interface OffsetSegments {
  transitions: number[];
  offsets: number[];
}

const namesByLowerCase = new Map(
  [DEFAULT_TIME_ZONE, ...Intl.supportedValuesOf('timeZone')].map((name) => [
    name.toLowerCase(),
    name,
  ]),
);
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The zone as named in the IANA database (case as there), or a 400 naming `timeZone`.
 * Aliases Intl knows (`US/Eastern`, `Etc/GMT+5`) are accepted as given.
 */
export function parseTimeZone(text: string): string {
  const known = namesByLowerCase.get(text.toLowerCase());
  if (known !== undefined) return known;
  try {
    offsetFormatter(text);
    return text;
  } catch {
    throw ApiError.badRequest(
      'INVALID_TIME_ZONE',
      `timeZone must be an IANA time zone name such as Europe/Berlin, got "${text}"`,
      { parameter: 'timeZone' },
    );
  }
}

function offsetFormatter(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    if (formatters.size < 1_000) formatters.set(zone, formatter);
  }
  return formatter;
}

/** Seconds east of UTC in `zone` at `epochMs`. */
export function offsetAt(zone: string, epochMs: number): number {
  if (zone === DEFAULT_TIME_ZONE) return 0;
  const name = offsetFormatter(zone)
    .formatToParts(epochMs)
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /^GMT(?:([+-])(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?)?$/.exec(name ?? '');
  if (!match) {
    throw ApiError.badRequest(
      'TIME_ZONE_NOT_SUPPORTED',
      `timeZone ${zone} has no offset from UTC this service can read ("${name}")`,
      { parameter: 'timeZone' },
    );
  }
  if (match[1] === undefined) return 0;
  const seconds = Number(match[2]) * 3600 + Number(match[3] ?? 0) * 60 + Number(match[4] ?? 0);
  return match[1] === '-' ? -seconds : seconds;
}

/** Per zone and UTC year: formatting an instant costs ~10 µs, a year's scan ~4 ms. */
const yearCache = new Map<string, OffsetSegments & { start: number }>();

function yearSegments(zone: string, year: number): OffsetSegments & { start: number } {
  const key = `${zone}\u0000${year}`;
  const cached = yearCache.get(key);
  if (cached) return cached;
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  const offsets = [offsetAt(zone, start)];
  const transitions: number[] = [];
  // Zones change offset at most a few times a year, months apart: a daily probe finds each
  // change, and a bisection to the second places it.
  let previous = start;
  for (let t = start + DAY_MS; t <= end; t += DAY_MS) {
    const offset = offsetAt(zone, t);
    if (offset !== offsets[offsets.length - 1]) {
      let [low, high] = [previous, t];
      while (high - low > 1000) {
        const middle = low + Math.floor((high - low) / 2000) * 1000;
        if (offsetAt(zone, middle) === offset) high = middle;
        else low = middle;
      }
      transitions.push(high / 1000);
      offsets.push(offset);
    }
    previous = t;
  }
  const segments = { start: start / 1000, transitions, offsets };
  if (yearCache.size < 10_000) yearCache.set(key, segments);
  return segments;
}

/**
 * The offsets of `zone` over every instant whose local date can fall within
 * [startDate, endDate], or a 400 naming `timeZone` when one of them is not a whole number
 * of quarter hours (local mean times before the zones of today): buckets could not be cut
 * at that zone's midnight.
 */
export function offsetSegments(zone: string, startDate: string, endDate: string): OffsetSegments {
  const from = Date.parse(startDate) - MAX_AHEAD_MS;
  const to = Date.parse(endDate) + DAY_MS + MAX_BEHIND_MS;
  const all: OffsetSegments = { transitions: [], offsets: [] };
  for (let year = new Date(from).getUTCFullYear(); year <= new Date(to).getUTCFullYear(); year++) {
    const segments = yearSegments(zone, year);
    if (all.offsets.length === 0) all.offsets.push(segments.offsets[0]);
    else if (segments.offsets[0] !== all.offsets[all.offsets.length - 1]) {
      all.transitions.push(segments.start);
      all.offsets.push(segments.offsets[0]);
    }
    all.transitions.push(...segments.transitions);
    all.offsets.push(...segments.offsets.slice(1));
  }
  // Only the changes inside the window matter; the offset in force at its start comes first.
  const first = all.transitions.filter((at) => at * 1000 <= from).length;
  const transitions = all.transitions.slice(first).filter((at) => at * 1000 < to);
  const offsets = all.offsets.slice(first, first + transitions.length + 1);
  const misaligned = [...offsets, ...transitions].some((s) => s % BUCKET_SECONDS !== 0);
  if (misaligned) {
    throw ApiError.badRequest(
      'TIME_ZONE_NOT_SUPPORTED',
      `timeZone ${zone} has an offset that is not a whole number of quarter hours between ` +
        `${startDate} and ${endDate}; usage is kept in quarter-hour buckets`,
      { parameter: 'timeZone' },
    );
  }
  return { transitions, offsets };
}

/** The window of UTC instants (epoch s, [from, to)) whose buckets may hold the period's local days. */
export function bucketWindow(startDate: string, endDate: string): { from: number; to: number } {
  return {
    from: (Date.parse(startDate) - MAX_AHEAD_MS) / 1000,
    to: (Date.parse(endDate) + DAY_MS + MAX_BEHIND_MS) / 1000,
  };
}

/**
 * Where a zone in use since 2020 starts its local day within an hour: minutes past each UTC
 * hour of the day (St John's -03:30/-02:30, the Marquesas -09:30, Chatham +12:45/+13:45,
 * Lord Howe +10:30, Adelaide and Darwin +09:30/+10:30, Eucla +08:45, Yangon and Cocos +06:30,
 * India and Sri Lanka +05:30, Nepal +05:45, Kabul +04:30, Tehran +03:30). The DuckDB rollups
 * cut each hour into buckets only there; every other hour is one bucket. A stored format:
 * rows already rolled up were cut by it, so it only ever changes with a migration that
 * rebuilds them (docs/decisions/0367-hourly-buckets-cut-where-a-zone-starts-its-day.md).
 */
const DAY_STARTS_WITHIN_HOURS: Readonly<Record<number, readonly number[]>> = {
  2: [30],
  3: [30],
  9: [30],
  10: [15],
  11: [15],
  13: [30],
  14: [30],
  15: [15],
  17: [30],
  18: [15, 30],
  19: [30],
  20: [30],
};
const QUARTERS_PER_HOUR = 3600 / BUCKET_SECONDS;

/**
 * For each quarter hour of a UTC day (hour * 4 + quarter within it), the quarter within its
 * hour at which the rollups' bucket holding it starts.
 */
export const BUCKET_START_QUARTERS: readonly number[] = Array.from(
  { length: 24 * QUARTERS_PER_HOUR },
  (_, i) => {
    const quarter = i % QUARTERS_PER_HOUR;
    const starts = (DAY_STARTS_WITHIN_HOURS[Math.floor(i / QUARTERS_PER_HOUR)] ?? []).map(
      (minutes) => (minutes * 60) / BUCKET_SECONDS,
    );
    return Math.max(0, ...starts.filter((start) => start <= quarter));
  },
);

/**
 * Whether every local day of the zone between `from` and `to` (epoch s, whole hours) starts
 * where a bucket of the rollups starts. Otherwise (a zone's offset of other years, or one
 * adopted after DAY_STARTS_WITHIN_HOURS) a bucket would hold the end of one local day and the
 * start of the next.
 */
export function localDaysFitBuckets(segments: OffsetSegments, from: number, to: number): boolean {
  const { transitions, offsets } = segments;
  let segment = 0;
  const localDay = (at: number) => {
    while (segment < transitions.length && at >= transitions[segment]) segment++;
    return Math.floor((at + offsets[segment]) / 86_400);
  };
  let day = localDay(from);
  for (let at = from + BUCKET_SECONDS; at < to; at += BUCKET_SECONDS) {
    const next = localDay(at);
    const quarter = Math.floor((at % 86_400) / BUCKET_SECONDS);
    if (next !== day && BUCKET_START_QUARTERS[quarter] !== quarter % QUARTERS_PER_HOUR) {
      return false;
    }
    day = next;
  }
  return true;
}
