import type { UsageEventColumns } from '../core/usage-event-columns.types.js';
import { creditsText, eventTimeText } from '../ingestion/usage-event-columns.js';

/** A write's staging table (a session temporary table): the events as the normalizer made them. */
export const STAGING_COLUMNS = [
  'grp UInt32',
  'day Date',
  'source String',
  'event_id String',
  'org_id String',
  // 'YYYY-MM-DD hh:mm:ss' (UTC) and the milliseconds: 18.x has no sub-second DateTime.
  'event_time String',
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

/** Lines encoded per chunk: a chunk's text is young garbage, its bytes live outside the heap. */
const LINES_PER_CHUNK = 256;

export interface StagingRows {
  /**
   * One line per event, tab-separated, in STAGING_COLUMNS order (ClickHouse `TabSeparated`),
   * as UTF-8 chunks of whole lines. Encoded as they are built: a write's rows held as one
   * string (~6 MB for 25,000 events) outlived the young generation, and collecting it from
   * the old one cost more CPU than building it (docs/benchmarks.md, "Usage ingestion as a
   * user sees it").
   */
  chunks: Buffer[];
  /** The UTC days the write touches: the only days its dedupe probe reads. */
  days: string[];
  carriesMetadata: boolean;
  /** Some event carries a version above 1: the write may correct stored events. */
  carriesVersions: boolean;
}

/**
 * The groups' events as `TabSeparated` rows (an event's `grp` is its group's position).
 * Tab-separated rather than JSON lines: no field names per row to write or for the server
 * to match, and each interned text escaped once per write instead of once per event
 * (docs/benchmarks.md, "Usage ingestion as a user sees it").
 */
export function stagingRows(groups: readonly UsageEventColumns[]): StagingRows {
  const chunks: Buffer[] = [];
  let lines: string[] = [];
  const days = new Set<string>();
  let carriesMetadata = false;
  let carriesVersions = false;
  groups.forEach((group, grp) => {
    const escapedText = group.dictionary.map(escaped);
    const text = (code: number) => escapedText[code - 1];
    const entries = new Map<number, { keys: string[]; values: string[] }>();
    const { combo, key, value } = group.comboEntries;
    for (let i = 0; i < combo.length; i++) {
      let entry = entries.get(combo[i]);
      if (!entry) entries.set(combo[i], (entry = { keys: [], values: [] }));
      entry.keys.push(quoted(group.dictionary[key[i] - 1]));
      entry.values.push(quoted(group.dictionary[value[i] - 1]));
    }
    const arrays = new Map<number, string>([[0, '[]\t[]']]);
    for (const [code, { keys, values }] of entries) {
      arrays.set(code, `[${keys.join(',')}]\t[${values.join(',')}]`);
    }
    for (const code of new Set(group.day)) days.add(group.dictionary[code - 1]);
    for (let row = 0; row < group.length; row++) {
      const time = eventTimeText(group, row);
      const metadata = arrays.get(group.combo[row]) ?? arrays.get(0);
      if (group.combo[row] !== 0) carriesMetadata = true;
      if (group.version[row] > 1) carriesVersions = true;
      lines.push(
        `${grp}\t${text(group.day[row])}\t${text(group.source[row])}\t${escaped(group.eventId[row])}` +
          `\t${text(group.org[row])}\t${time.slice(0, 10)} ${time.slice(11, 19)}` +
          `\t${Number(time.slice(20, 23)) || 0}\t${text(group.product[row])}` +
          `\t${text(group.feature[row])}\t${text(group.apiKey[row])}\t${text(group.fileType[row])}` +
          `\t${group.pages[row]}\t${group.version[row]}\t${creditsText(group, row)}\t${nullable(group.jobId[row])}` +
          `\t${group.isAsync[row]}\t${nullable(group.metadataJson[row])}\t${metadata}\n`,
      );
      if (lines.length === LINES_PER_CHUNK) {
        chunks.push(Buffer.from(lines.join('')));
        lines = [];
      }
    }
  });
  if (lines.length > 0) chunks.push(Buffer.from(lines.join('')));
  return { chunks, days: [...days].sort(), carriesMetadata, carriesVersions };
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

function nullable(text: string | null): string {
  return text === null ? '\\N' : escaped(text);
}
