// What the usage view asks the export for: date presets, groupBy choices and filters turned
// into the export's own query parameters (repeatable ones repeated), so the chart, the
// table and the CSV download all read exactly the same query.

const DAY_MS = 86_400_000;

export const GROUP_BY = [
  { value: 'product', label: 'Product' },
  { value: 'feature', label: 'Feature' },
  { value: 'api_key', label: 'API key' },
  { value: 'file_type', label: 'File type' },
];

export const PRESETS = [
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: '90d', label: 'Last 90 days' },
  { value: 'this-month', label: 'This month' },
  { value: 'last-month', label: 'Last month' },
];

/** Time zones offered for local days: UTC, the browser's own zone, and common ones. */
export function timeZoneChoices(own = Intl.DateTimeFormat().resolvedOptions().timeZone) {
  const common = [
    'America/Los_Angeles',
    'America/New_York',
    'America/Sao_Paulo',
    'Europe/London',
    'Europe/Berlin',
    'Asia/Kolkata',
    'Asia/Singapore',
    'Asia/Tokyo',
    'Australia/Sydney',
  ];
  return [...new Set(['UTC', ...(own ? [own] : []), ...common])];
}

/** The repeatable filters of the export, besides metadata values. */
export const FILTERS = [
  { param: 'product', groupBy: 'product', label: 'Products' },
  { param: 'feature', groupBy: 'feature', label: 'Features' },
  { param: 'apiKey', groupBy: 'api_key', label: 'API keys' },
  { param: 'fileType', groupBy: 'file_type', label: 'File types' },
];

function isoDay(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Today's date in `timeZone`, as a UTC midnight (ms). */
function todayIn(now, timeZone) {
  if (!timeZone || timeZone === 'UTC') {
    return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  }
  const local = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
  return Date.parse(`${local}T00:00:00Z`);
}

/**
 * "Last N days": from the day N days before today through today (so far), the export's own
 * rule for its default period (the service spec: startDate "30 days before today", endDate
 * "today"). "Last 30 days" is therefore exactly what an export without dates answers, and
 * a finance user comparing the two sees the same totals; every "Last N days" follows it.
 */
export function lastDays(days, today) {
  return { start: isoDay(today - days * DAY_MS), end: isoDay(today) };
}

/** Inclusive date range of a preset, relative to `now`, in local days of `timeZone`. */
export function presetRange(preset, now = new Date(), timeZone = 'UTC') {
  const today = todayIn(now, timeZone);
  const at = new Date(today);
  switch (preset) {
    case '7d':
      return lastDays(7, today);
    case '90d':
      return lastDays(90, today);
    case 'this-month':
      return {
        start: isoDay(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)),
        end: isoDay(today),
      };
    case 'last-month':
      return {
        start: isoDay(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - 1, 1)),
        end: isoDay(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 0)),
      };
    default:
      return lastDays(30, today);
  }
}

/** Every day of an inclusive range, so days without usage show as empty bars. */
export function daysOf(start, end) {
  const days = [];
  const last = Date.parse(`${end}T00:00:00Z`);
  for (let at = Date.parse(`${start}T00:00:00Z`); at <= last && days.length < 400; at += DAY_MS) {
    days.push(isoDay(at));
  }
  return days;
}

/** `groupBy` select value → export parameters (`metadata:team` → metadata + metadataKey). */
export function splitGroupBy(choice) {
  if (choice.startsWith('metadata:')) {
    return { groupBy: 'metadata', metadataKey: choice.slice('metadata:'.length) };
  }
  return { groupBy: choice, metadataKey: null };
}

/**
 * Export query string for the view's state. Metadata values filter on the grouping key when
 * grouping by metadata, otherwise on the chosen filter key (the export takes one key).
 */
export function exportQuery({ orgId, start, end, timeZone, groupBy, filters }) {
  const params = new URLSearchParams();
  if (orgId) params.set('orgId', orgId);
  params.set('startDate', start);
  params.set('endDate', end);
  if (timeZone && timeZone !== 'UTC') params.set('timeZone', timeZone);
  const group = splitGroupBy(groupBy);
  params.set('groupBy', group.groupBy);
  for (const { param } of FILTERS) {
    for (const value of filters[param] ?? []) params.append(param, value);
  }
  const valueKey = group.metadataKey ?? filters.metadataKey;
  const values = valueKey && valueKey === filters.metadataKey ? filters.metadataValue : [];
  if (group.metadataKey) params.set('metadataKey', group.metadataKey);
  else if (valueKey && values.length) params.set('metadataKey', valueKey);
  for (const value of values) params.append('metadataValue', value);
  return `/api/v1/usage/export?${params}`;
}

/** Query for the distinct values of one dimension over the range, unfiltered. */
export function optionsQuery({ orgId, start, end, timeZone }, groupBy, metadataKey) {
  const params = new URLSearchParams({ startDate: start, endDate: end, groupBy });
  if (timeZone && timeZone !== 'UTC') params.set('timeZone', timeZone);
  if (orgId) params.set('orgId', orgId);
  if (metadataKey) params.set('metadataKey', metadataKey);
  return `/api/v1/usage/export?${params}`;
}

export function emptyFilters() {
  return { product: [], feature: [], apiKey: [], fileType: [], metadataKey: '', metadataValue: [] };
}

export function activeFilterCount(filters) {
  return (
    FILTERS.reduce((n, { param }) => n + filters[param].length, 0) + filters.metadataValue.length
  );
}
