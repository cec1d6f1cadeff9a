/**
 * A reference computation of the usage export in plain TypeScript, written independently
 * of the service code, over the same events the API ingested. Credits are summed as
 * integer micro-credits (BigInt), so comparisons are exact to the last digit.
 */
export interface ReferenceEvent {
  id: string;
  source: string;
  time: string;
  data: {
    orgId: string;
    apiKeyId: string;
    product: string;
    feature: string;
    fileType: string;
    credits: string | number;
    async: boolean;
    metadata?: unknown;
    /** A correction: of the events with one identity, the highest version counts. */
    version?: number;
  };
}

export type ReferenceGroupBy = 'product' | 'feature' | 'api_key' | 'file_type' | 'metadata';

export interface ReferenceQuery {
  orgId: string;
  startDate: string;
  endDate: string;
  groupBy: ReferenceGroupBy;
  /** A second grouping dimension: rows then carry `subgroup`. */
  secondGroupBy?: ReferenceGroupBy;
  /** Days are local days of this zone (default UTC). */
  timeZone?: string;
  metadataKey?: string;
  metadataValues?: string[];
  products?: string[];
  features?: string[];
  apiKeys?: string[];
  fileTypes?: string[];
}

export interface ReferenceRow {
  date: string;
  group: string;
  subgroup?: string;
  credits: string;
  requestCount: number;
}

export function toMicros(credits: string): bigint {
  const [int, frac = ''] = credits.split('.');
  return BigInt(int) * 1_000_000n + BigInt(frac.padEnd(6, '0').slice(0, 6));
}

export function microsToText(micros: bigint): string {
  const int = micros / 1_000_000n;
  const frac = (micros % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return frac ? `${int}.${frac}` : `${int}`;
}

function firstCodePoints(text: string, n: number): string {
  return Array.from(text).slice(0, n).join('');
}

/** The value of `key` as compared text, or undefined when the event does not carry it. */
function carried(event: ReferenceEvent, key: string): string | undefined {
  const metadata = event.data.metadata;
  if (
    !event.data.async ||
    typeof metadata !== 'object' ||
    metadata === null ||
    Array.isArray(metadata)
  ) {
    return undefined;
  }
  const value = (metadata as Record<string, unknown>)[key];
  if (typeof value === 'string') return firstCodePoints(value, 256);
  if (typeof value === 'number' || typeof value === 'boolean')
    return firstCodePoints(String(value), 256);
  return undefined;
}

const HOUR_MS = 3_600_000;

/** The `n`th Sunday (1-based; -1 = the last) of a month (0-based), as a UTC day start. */
function sunday(year: number, month: number, n: number): number {
  if (n < 0) {
    const last = Date.UTC(year, month + 1, 0);
    return last - new Date(last).getUTCDay() * 24 * HOUR_MS;
  }
  const first = Date.UTC(year, month, 1);
  return first + (((7 - new Date(first).getUTCDay()) % 7) + 7 * (n - 1)) * 24 * HOUR_MS;
}

/**
 * Offset from UTC in ms by the zones' published rules, without Intl: the US rule since 2007
 * (second Sunday of March 02:00 local to first Sunday of November 02:00 local), the EU rule
 * since 1996 (last Sunday of March 01:00 UTC to last Sunday of October 01:00 UTC), India
 * fixed at +05:30.
 */
function ruleOffset(zone: string, ms: number): number | undefined {
  const year = new Date(ms).getUTCFullYear();
  switch (zone) {
    case 'UTC':
      return 0;
    case 'Asia/Kolkata':
      return 5.5 * HOUR_MS;
    case 'America/New_York': {
      const start = sunday(year, 2, 2) + 7 * HOUR_MS;
      const end = sunday(year, 10, 1) + 6 * HOUR_MS;
      return ms >= start && ms < end ? -4 * HOUR_MS : -5 * HOUR_MS;
    }
    case 'Europe/Berlin': {
      const start = sunday(year, 2, -1) + HOUR_MS;
      const end = sunday(year, 9, -1) + HOUR_MS;
      return ms >= start && ms < end ? 2 * HOUR_MS : HOUR_MS;
    }
    default:
      return undefined;
  }
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The local date (yyyy-mm-dd) of an instant: by the rules above, else Intl's own calendar. */
export function localDate(time: string, zone = 'UTC'): string {
  const ms = Date.parse(time);
  const offset = ruleOffset(zone, ms);
  if (offset !== undefined) return new Date(ms + offset).toISOString().slice(0, 10);
  let format = dateFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dateFormats.set(zone, format);
  }
  return format.format(ms);
}

export function referenceExport(events: ReferenceEvent[], query: ReferenceQuery): ReferenceRow[] {
  const seen = new Set<string>();
  const totals = new Map<string, { credits: bigint; count: number }>();
  const wanted = (list: string[] | undefined, value: string) =>
    !list || list.length === 0 || list.includes(value);
  const values = query.metadataValues?.map((v) => firstCodePoints(v, 256));
  const dimensions = [query.groupBy, ...(query.secondGroupBy ? [query.secondGroupBy] : [])];
  // Of the events of one identity, the first of the highest version counts.
  const counted = new Map<string, ReferenceEvent>();
  for (const event of events) {
    const dedupeKey = `${event.source}\u0000${event.id}`;
    const current = counted.get(dedupeKey);
    if (!current || (event.data.version ?? 1) > (current.data.version ?? 1)) {
      counted.set(dedupeKey, event);
    }
  }
  for (const event of events) {
    const dedupeKey = `${event.source}\u0000${event.id}`;
    if (seen.has(dedupeKey) || counted.get(dedupeKey) !== event) continue;
    seen.add(dedupeKey);
    const d = event.data;
    const day = localDate(event.time, query.timeZone);
    if (d.orgId !== query.orgId || day < query.startDate || day > query.endDate) continue;
    if (!wanted(query.products, d.product) || !wanted(query.features, d.feature)) continue;
    if (!wanted(query.apiKeys, d.apiKeyId) || !wanted(query.fileTypes, d.fileType)) continue;
    const value = query.metadataKey !== undefined ? carried(event, query.metadataKey) : undefined;
    if (query.metadataKey !== undefined && !dimensions.includes('metadata') && value === undefined)
      continue;
    if (values && values.length > 0 && (value === undefined || !values.includes(value))) continue;
    const groupOf = (dimension: ReferenceGroupBy): string => {
      switch (dimension) {
        case 'product':
          return d.product;
        case 'feature':
          return d.feature;
        case 'api_key':
          return d.apiKeyId;
        case 'file_type':
          return d.fileType;
        case 'metadata':
          return value ?? 'unknown';
      }
    };
    const key = [day, ...dimensions.map(groupOf)].join('\u0000');
    const entry = totals.get(key) ?? { credits: 0n, count: 0 };
    entry.credits += toMicros(String(d.credits));
    entry.count += 1;
    totals.set(key, entry);
  }
  return [...totals.entries()]
    .map(([key, { credits, count }]) => {
      const [date, group, subgroup] = key.split('\u0000');
      return {
        date,
        group,
        ...(subgroup === undefined ? {} : { subgroup }),
        credits: microsToText(credits),
        requestCount: count,
      };
    })
    .sort(
      (a, b) =>
        (a.date !== b.date ? (a.date < b.date ? -1 : 1) : 0) ||
        compareBytes(a.group, b.group) ||
        compareBytes(a.subgroup ?? '', b.subgroup ?? ''),
    );
}

/** DuckDB orders VARCHAR by UTF-8 bytes. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Reads an export JSON body keeping each `credits` literal exactly as sent. */
export function parseExportBody(text: string): {
  body: Record<string, unknown>;
  rows: ReferenceRow[];
} {
  const body = JSON.parse(text) as {
    data: { date: string; group: string; subgroup?: string; requestCount: number }[];
  };
  const literals = [...text.matchAll(/"credits":(-?[0-9.eE+-]+)/g)].map((m) => m[1]);
  const rows = body.data.map((r, i) => ({
    date: r.date,
    group: r.group,
    ...(r.subgroup === undefined ? {} : { subgroup: r.subgroup }),
    credits: literals[i],
    requestCount: r.requestCount,
  }));
  return { body, rows };
}
