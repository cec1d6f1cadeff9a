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
  };
}

export interface ReferenceQuery {
  orgId: string;
  startDate: string;
  endDate: string;
  groupBy: 'product' | 'feature' | 'api_key' | 'file_type' | 'metadata';
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

export function referenceExport(events: ReferenceEvent[], query: ReferenceQuery): ReferenceRow[] {
  const seen = new Set<string>();
  const totals = new Map<string, { credits: bigint; count: number }>();
  const wanted = (list: string[] | undefined, value: string) =>
    !list || list.length === 0 || list.includes(value);
  const values = query.metadataValues?.map((v) => firstCodePoints(v, 256));
  for (const event of events) {
    const dedupeKey = `${event.source}\u0000${event.id}`;
    if (seen.has(dedupeKey)) continue;
    seen.add(dedupeKey);
    const d = event.data;
    const day = new Date(event.time).toISOString().slice(0, 10);
    if (d.orgId !== query.orgId || day < query.startDate || day > query.endDate) continue;
    if (!wanted(query.products, d.product) || !wanted(query.features, d.feature)) continue;
    if (!wanted(query.apiKeys, d.apiKeyId) || !wanted(query.fileTypes, d.fileType)) continue;
    let group: string;
    const value = query.metadataKey !== undefined ? carried(event, query.metadataKey) : undefined;
    if (query.metadataKey !== undefined && query.groupBy !== 'metadata' && value === undefined)
      continue;
    if (values && values.length > 0 && (value === undefined || !values.includes(value))) continue;
    switch (query.groupBy) {
      case 'product':
        group = d.product;
        break;
      case 'feature':
        group = d.feature;
        break;
      case 'api_key':
        group = d.apiKeyId;
        break;
      case 'file_type':
        group = d.fileType;
        break;
      case 'metadata':
        group = value ?? 'unknown';
        break;
    }
    const key = `${day}\u0000${group}`;
    const entry = totals.get(key) ?? { credits: 0n, count: 0 };
    entry.credits += toMicros(String(d.credits));
    entry.count += 1;
    totals.set(key, entry);
  }
  return [...totals.entries()]
    .map(([key, { credits, count }]) => {
      const [date, group] = key.split('\u0000');
      return { date, group, credits: microsToText(credits), requestCount: count };
    })
    .sort((a, b) =>
      a.date !== b.date ? (a.date < b.date ? -1 : 1) : compareBytes(a.group, b.group),
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
    data: { date: string; group: string; requestCount: number }[];
  };
  const literals = [...text.matchAll(/"credits":(-?[0-9.eE+-]+)/g)].map((m) => m[1]);
  const rows = body.data.map((r, i) => ({
    date: r.date,
    group: r.group,
    credits: literals[i],
    requestCount: r.requestCount,
  }));
  return { body, rows };
}
