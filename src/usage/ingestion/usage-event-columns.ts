import type { NormalizerPolicy } from '../../config/usage.types.js';
import type { UsageEventRejection } from './normalized-usage-event.js';
import { normalizeUsageEvent } from './usage-event.normalizer.js';
import type { UsageEventColumns } from '../core/usage-event-columns.types.js';

export interface NormalizedBatch {
  columns: UsageEventColumns;
  /** Input position of each accepted row. */
  inputIndex: Int32Array;
  /** Input position and reason of every refused payload, in input order. */
  rejected: { index: number; rejection: UsageEventRejection }[];
}

/** The interned columns, in the order the store stages them. */
export const CODED_COLUMNS = [
  'source',
  'org',
  'day',
  'product',
  'feature',
  'apiKey',
  'fileType',
] as const;
/**
 * The text columns, in the order the store stages them. Time and credits travel as numbers:
 * each text value is one more string on the writer's heap until its write, one more native
 * call into the appender and one more parse in DuckDB.
 */
export const TEXT_COLUMNS = ['eventId', 'jobId', 'metadataJson'] as const;
/** The number columns besides the codes (all typed arrays, transferred between threads). */
export const NUMBER_COLUMNS = [
  'pages',
  'version',
  'combo',
  'eventTimeMs',
  'creditsWhole',
  'creditsMicros',
] as const;

/** Validates and normalizes every payload (raw bytes, text or parsed objects) into columns. */
export function normalizeToColumns(
  payloads: readonly unknown[],
  now: Date,
  policy: NormalizerPolicy,
): NormalizedBatch {
  const dictionary: string[] = [];
  const codes = new Map<string, number>();
  const code = (text: string): number => {
    let c = codes.get(text);
    if (c === undefined) {
      c = dictionary.push(text);
      codes.set(text, c);
    }
    return c;
  };
  const n = payloads.length;
  const ints = {
    source: new Int32Array(n),
    org: new Int32Array(n),
    day: new Int32Array(n),
    product: new Int32Array(n),
    feature: new Int32Array(n),
    apiKey: new Int32Array(n),
    fileType: new Int32Array(n),
    pages: new Int32Array(n),
    version: new Int32Array(n),
    combo: new Int32Array(n),
    creditsMicros: new Int32Array(n),
  };
  const eventTimeMs = new Float64Array(n);
  const creditsWhole = new Float64Array(n);
  const isAsync = new Uint8Array(n);
  const inputIndex = new Int32Array(n);
  const eventId: string[] = [];
  const jobId: (string | null)[] = [];
  const metadataJson: (string | null)[] = [];
  const entries: number[][] = [[], [], []];
  const combos = new Map<string, number>();
  const rejected: NormalizedBatch['rejected'] = [];
  let row = 0;

  for (let index = 0; index < n; index++) {
    const result = normalizeUsageEvent(payloads[index], now, policy);
    if (!result.ok) {
      rejected.push({ index, rejection: result.rejection });
      continue;
    }
    const e = result.event;
    ints.source[row] = code(e.source);
    ints.org[row] = code(e.orgId);
    ints.day[row] = code(e.day);
    ints.product[row] = code(e.product);
    ints.feature[row] = code(e.feature);
    ints.apiKey[row] = code(e.apiKeyId);
    ints.fileType[row] = code(e.fileType);
    ints.pages[row] = e.pages;
    ints.version[row] = e.version;
    isAsync[row] = e.isAsync ? 1 : 0;
    // Dashboards' metadata has few distinct combinations (team x env...), so the metadata
    // rollups are built once per combination, not once per event.
    const pairs: number[] = [];
    for (const key in e.metadata) pairs.push(code(key), code(e.metadata[key]));
    if (pairs.length > 0) {
      const signature = pairs.join(',');
      let combo = combos.get(signature);
      if (combo === undefined) {
        combo = combos.size + 1;
        combos.set(signature, combo);
        for (let i = 0; i < pairs.length; i += 2) {
          entries[0].push(combo);
          entries[1].push(pairs[i]);
          entries[2].push(pairs[i + 1]);
        }
      }
      ints.combo[row] = combo;
    }
    eventId.push(e.eventId);
    eventTimeMs[row] = e.eventTimeMs;
    // Canonical text "I.FFFFFF": at most 12 integer digits, exact as a double.
    const point = e.credits.indexOf('.');
    creditsWhole[row] = Number(e.credits.slice(0, point));
    ints.creditsMicros[row] = Number(e.credits.slice(point + 1));
    jobId.push(e.jobId);
    metadataJson.push(e.metadataJson);
    inputIndex[row] = index;
    row++;
  }

  const cut = <A extends Int32Array | Uint8Array | Float64Array>(array: A): A =>
    array.slice(0, row) as A;
  const columns: UsageEventColumns = {
    length: row,
    dictionary,
    source: cut(ints.source),
    org: cut(ints.org),
    day: cut(ints.day),
    product: cut(ints.product),
    feature: cut(ints.feature),
    apiKey: cut(ints.apiKey),
    fileType: cut(ints.fileType),
    pages: cut(ints.pages),
    version: cut(ints.version),
    isAsync: cut(isAsync),
    combo: cut(ints.combo),
    eventId,
    eventTimeMs: cut(eventTimeMs),
    creditsWhole: cut(creditsWhole),
    creditsMicros: cut(ints.creditsMicros),
    jobId,
    metadataJson,
    comboEntries: {
      combo: Int32Array.from(entries[0]),
      key: Int32Array.from(entries[1]),
      value: Int32Array.from(entries[2]),
    },
  };
  return { columns, inputIndex: cut(inputIndex), rejected };
}

/** The rows where `keep` is true (same dictionary and combinations). */
export function selectRows(
  columns: UsageEventColumns,
  keep: (row: number) => boolean,
): UsageEventColumns {
  const rows: number[] = [];
  for (let r = 0; r < columns.length; r++) if (keep(r)) rows.push(r);
  const pick = <A extends Int32Array | Uint8Array | Float64Array>(array: A): A => {
    const picked = new (array.constructor as new (length: number) => A)(rows.length);
    rows.forEach((r, i) => (picked[i] = array[r]));
    return picked;
  };
  const pickText = (array: readonly unknown[]): unknown[] => rows.map((r) => array[r]);
  const selected = { ...columns, length: rows.length } as {
    -readonly [K in keyof UsageEventColumns]: UsageEventColumns[K];
  };
  for (const name of CODED_COLUMNS) selected[name] = pick(columns[name]);
  selected.pages = pick(columns.pages);
  selected.version = pick(columns.version);
  selected.combo = pick(columns.combo);
  selected.eventTimeMs = pick(columns.eventTimeMs);
  selected.creditsWhole = pick(columns.creditsWhole);
  selected.creditsMicros = pick(columns.creditsMicros);
  selected.isAsync = pick(columns.isAsync);
  for (const name of TEXT_COLUMNS) (selected[name] as unknown[]) = pickText(columns[name]);
  return selected;
}

/** The typed arrays' buffers, for `postMessage`'s transfer list. */
export function transferables(batch: NormalizedBatch): ArrayBuffer[] {
  const { columns } = batch;
  const arrays = [
    ...CODED_COLUMNS.map((name) => columns[name]),
    ...NUMBER_COLUMNS.map((name) => columns[name]),
    columns.isAsync,
    ...Object.values(columns.comboEntries),
    batch.inputIndex,
  ];
  return arrays.map((a) => a.buffer as ArrayBuffer);
}

/** Row `row`'s event time as the normalizer wrote it (ISO 8601, UTC, milliseconds). */
export function eventTimeText(columns: UsageEventColumns, row: number): string {
  return new Date(columns.eventTimeMs[row]).toISOString();
}

/** Row `row`'s credits as canonical decimal text with six fractional digits. */
export function creditsText(columns: UsageEventColumns, row: number): string {
  return `${columns.creditsWhole[row]}.${String(columns.creditsMicros[row]).padStart(6, '0')}`;
}
