import type { UsageEventColumns } from '../core/usage-event-columns.types.js';

/** A write's staging table (a session temporary table): the events as the normalizer made them. */
export const STAGING_COLUMNS = [
  'grp UInt32',
  'day Date',
  'source String',
  'event_id String',
  'org_id String',
  // Whole seconds since the epoch (UTC) and the milliseconds: 18.x has no sub-second DateTime.
  'event_seconds UInt32',
  'event_ms UInt16',
  'product String',
  'feature String',
  'api_key_id String',
  'file_type String',
  'pages UInt32',
  'version UInt32',
  // Exact decimal text, converted by toDecimal64 on the server (never a JS number).
  'credits String',
  'job_id Nullable(String)',
  'is_async UInt8',
  'metadata_json Nullable(String)',
  'meta_keys Array(String)',
  'meta_values Array(String)',
].join(', ');

/** Bytes per chunk: large enough that a write is a few dozen chunks, small enough to stay off-heap cheaply. */
const CHUNK_BYTES = 256 * 1024;
/** The most bytes a row takes besides its free texts (numbers, interned texts are measured). */
const ROW_FIXED_BYTES = 128;

export interface StagingRows {
  /**
   * One line per event, tab-separated, in STAGING_COLUMNS order (ClickHouse `TabSeparated`),
   * as UTF-8 chunks of whole lines. Written field by field into off-heap buffers: interned
   * texts are escaped and encoded once per write and copied per row, numbers are written as
   * digits, so a row leaves no string behind for the garbage collector (building each row as
   * a string cost more CPU in V8's collector than in the encoding; docs/benchmarks.md,
   * "Usage store: ClickHouse staging rows written into buffers").
   */
  chunks: Buffer[];
  /** The UTC days the write touches: the only days its dedupe probe reads. */
  days: string[];
  carriesMetadata: boolean;
  /** Some event carries a version above 1: the write may correct stored events. */
  carriesVersions: boolean;
}

/** Appends TabSeparated fields to a list of buffers. */
class TabSeparatedWriter {
  readonly chunks: Buffer[] = [];
  private buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;

  /** Makes room for a row of at most `bytes`, keeping rows whole within a chunk. */
  beginRow(bytes: number): void {
    if (this.used + bytes <= this.buffer.length) return;
    if (this.used > 0) this.chunks.push(this.buffer.subarray(0, this.used));
    this.buffer = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, bytes));
    this.used = 0;
  }

  bytes(encoded: Buffer): void {
    this.used += encoded.copy(this.buffer, this.used);
  }

  /** Text already escaped for TabSeparated (or plain ASCII such as digits and separators). */
  text(escapedText: string): void {
    this.used += this.buffer.write(escapedText, this.used, 'utf8');
  }

  byte(code: number): void {
    this.buffer[this.used++] = code;
  }

  /** A non-negative integer below 2^53 as decimal digits. */
  integer(value: number): void {
    if (value < 10) {
      this.buffer[this.used++] = 48 + value;
      return;
    }
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    let rest = value;
    for (let i = this.used + digits - 1; i >= this.used; i--) {
      this.buffer[i] = 48 + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    this.used += digits;
  }

  /** `value` (0 <= value < 10^width) as exactly `width` digits, zero-padded. */
  padded(value: number, width: number): void {
    let rest = value;
    for (let i = this.used + width - 1; i >= this.used; i--) {
      this.buffer[i] = 48 + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    this.used += width;
  }

  finish(): Buffer[] {
    if (this.used > 0) this.chunks.push(this.buffer.subarray(0, this.used));
    this.used = 0;
    return this.chunks;
  }
}

const TAB = 9;
const NEWLINE = 10;
const NULL_FIELD = Buffer.from('\\N');
const NO_METADATA = Buffer.from('[]\t[]');

/** The most UTF-8 bytes `text` can take escaped (each UTF-16 unit: at most 3 bytes, doubled). */
function escapedBytesAtMost(text: string | null): number {
  return text === null ? 2 : text.length * 6;
}

/**
 * The groups' events as `TabSeparated` rows (an event's `grp` is its group's position).
 * Tab-separated rather than JSON lines: no field names per row to write or for the server
 * to match, and each interned text escaped once per write instead of once per event
 * (docs/benchmarks.md, "Usage ingestion as a user sees it").
 */
export function stagingRows(groups: readonly UsageEventColumns[]): StagingRows {
  const out = new TabSeparatedWriter();
  const days = new Set<string>();
  let carriesMetadata = false;
  let carriesVersions = false;
  groups.forEach((group, grp) => {
    const interned = group.dictionary.map((text) => Buffer.from(escaped(text)));
    const metadata = metadataArrays(group);
    let internedBytes = 0;
    for (const encoded of interned) internedBytes = Math.max(internedBytes, encoded.length);
    let metadataBytes = NO_METADATA.length;
    for (const encoded of metadata.values()) {
      metadataBytes = Math.max(metadataBytes, encoded.length);
    }
    for (const code of new Set(group.day)) days.add(group.dictionary[code - 1]);
    for (let row = 0; row < group.length; row++) {
      const jobId = group.jobId[row];
      const metadataJson = group.metadataJson[row];
      const eventId = group.eventId[row];
      out.beginRow(
        ROW_FIXED_BYTES +
          7 * internedBytes +
          metadataBytes +
          escapedBytesAtMost(eventId) +
          escapedBytesAtMost(jobId) +
          escapedBytesAtMost(metadataJson),
      );
      if (group.combo[row] !== 0) carriesMetadata = true;
      if (group.version[row] > 1) carriesVersions = true;
      const timeMs = group.eventTimeMs[row];
      const seconds = Math.floor(timeMs / 1000);
      out.integer(grp);
      out.byte(TAB);
      out.bytes(interned[group.day[row] - 1]);
      out.byte(TAB);
      out.bytes(interned[group.source[row] - 1]);
      out.byte(TAB);
      out.text(escaped(eventId));
      out.byte(TAB);
      out.bytes(interned[group.org[row] - 1]);
      out.byte(TAB);
      out.integer(seconds);
      out.byte(TAB);
      out.integer(Math.floor(timeMs - seconds * 1000));
      out.byte(TAB);
      out.bytes(interned[group.product[row] - 1]);
      out.byte(TAB);
      out.bytes(interned[group.feature[row] - 1]);
      out.byte(TAB);
      out.bytes(interned[group.apiKey[row] - 1]);
      out.byte(TAB);
      out.bytes(interned[group.fileType[row] - 1]);
      out.byte(TAB);
      out.integer(group.pages[row]);
      out.byte(TAB);
      out.integer(group.version[row]);
      out.byte(TAB);
      out.integer(group.creditsWhole[row]);
      out.byte(46); // '.'
      out.padded(group.creditsMicros[row], 6);
      out.byte(TAB);
      nullableText(out, jobId);
      out.byte(TAB);
      out.integer(group.isAsync[row]);
      out.byte(TAB);
      nullableText(out, metadataJson);
      out.byte(TAB);
      out.bytes(metadata.get(group.combo[row]) ?? NO_METADATA);
      out.byte(NEWLINE);
    }
  });
  return { chunks: out.finish(), days: [...days].sort(), carriesMetadata, carriesVersions };
}

/** Per metadata combination of a group: its keys and values as two array fields, encoded. */
function metadataArrays(group: UsageEventColumns): Map<number, Buffer> {
  const entries = new Map<number, { keys: string[]; values: string[] }>();
  const { combo, key, value } = group.comboEntries;
  for (let i = 0; i < combo.length; i++) {
    let entry = entries.get(combo[i]);
    if (!entry) entries.set(combo[i], (entry = { keys: [], values: [] }));
    entry.keys.push(quoted(group.dictionary[key[i] - 1]));
    entry.values.push(quoted(group.dictionary[value[i] - 1]));
  }
  const arrays = new Map<number, Buffer>();
  for (const [code, { keys, values }] of entries) {
    arrays.set(code, Buffer.from(`[${keys.join(',')}]\t[${values.join(',')}]`));
  }
  return arrays;
}

function nullableText(out: TabSeparatedWriter, text: string | null): void {
  if (text === null) out.bytes(NULL_FIELD);
  else out.text(escaped(text));
}

/** Characters a `TabSeparated` field or a quoted array element must escape. */
const SPECIAL = /[\\\t\n\r\0\b\f']/;
const SPECIALS = /[\\\t\n\r\0\b\f']/g;
const ESCAPE: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\0': '\\0',
  '\b': '\\b',
  '\f': '\\f',
  "'": "\\'",
};

/** A string as a `TabSeparated` field (ClickHouse reads each escape back to its character). */
export function escaped(text: string): string {
  return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ESCAPE[c]) : text;
}

/** A string as an element of an array field: quoted and escaped. */
function quoted(text: string): string {
  return `'${escaped(text)}'`;
}
