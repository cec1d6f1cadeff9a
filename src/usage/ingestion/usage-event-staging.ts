import type { DuckDBConnection, DuckDBType } from '@duckdb/node-api';
import { duckdb } from '../../database/duckdb-api.js';
import type { UsageEventColumns } from '../core/usage-event-columns.types.js';
import { CODED_COLUMNS, TEXT_COLUMNS } from './usage-event-columns.js';

const { BOOLEAN, DOUBLE, DuckDBDataChunk, INTEGER, VARCHAR } = duckdb;

/**
 * Columnar staging of a write's events into two connection-local temp tables.
 *
 * Each VARCHAR value crosses into DuckDB through its own native call, while an INTEGER
 * column is one copy of a typed array. Most of an event's text is low-cardinality (source,
 * org, day, product, feature, API key, file type, metadata keys and values), so those are
 * staged as codes into `dictionary`, which the SQL resolves with `$dict[code]`. Only the
 * event id, job id and metadata JSON stay text (time and credits are numbers): about 2
 * native calls per event instead of 17 converted values and two lists (docs/benchmarks.md,
 * "Usage store at scale").
 */
export const EVENT_STAGING = 'usage_staging';
export const METADATA_STAGING = 'usage_staging_metadata';

/** Staged columns: the codes of CODED_COLUMNS, the numbers, then TEXT_COLUMNS, in their order. */
const EVENT_COLUMNS: [string, DuckDBType][] = [
  ['grp', INTEGER],
  ['source_c', INTEGER],
  ['org_c', INTEGER],
  ['day_c', INTEGER],
  ['product_c', INTEGER],
  ['feature_c', INTEGER],
  ['api_key_c', INTEGER],
  ['file_type_c', INTEGER],
  ['pages', INTEGER],
  ['is_async', BOOLEAN],
  // Code of the event's groupable metadata entries as a combination (0: none).
  ['meta_c', INTEGER],
  // Epoch milliseconds, and the credits' integer part and millionths (exact as doubles).
  ['event_time_ms', DOUBLE],
  ['credits_whole', DOUBLE],
  ['credits_micros', INTEGER],
  ['version', INTEGER],
  ['event_id', VARCHAR],
  ['job_id', VARCHAR],
  ['metadata_json', VARCHAR],
];
/** One row per entry of each distinct combination of metadata entries in the write. */
const METADATA_COLUMNS: [string, DuckDBType][] = [
  ['combo', INTEGER],
  ['key_c', INTEGER],
  ['value_c', INTEGER],
];
const CHUNK_ROWS = 2048;

export interface StagedWrite {
  /** Code + 1 -> text (DuckDB lists are 1-based): pass as the `$dict` list parameter. */
  dictionary: string[];
  /** UTC days the write touches: the only days its dedupe probe reads. */
  days: string[];
  carriesMetadata: boolean;
  /** Some event carries a version above 1: the write may correct stored events. */
  carriesVersions: boolean;
}

/**
 * Stages `groups` (an event's `grp` is its group's position). Each group brings its own
 * dictionary and metadata combinations; they are laid end to end, so a group's codes move
 * by the number of entries before it (a text repeated across groups just has two codes).
 */
export async function stageEvents(
  connection: DuckDBConnection,
  groups: readonly UsageEventColumns[],
): Promise<StagedWrite> {
  const total = groups.reduce((n, g) => n + g.length, 0);
  const dictionary: string[] = [];
  const days = new Set<string>();
  const grp = new Int32Array(total);
  const coded = CODED_COLUMNS.map(() => new Int32Array(total));
  const combo = new Int32Array(total);
  const text: (string | null)[][] = TEXT_COLUMNS.map(() => []);
  const meta: number[][] = METADATA_COLUMNS.map(() => []);
  let row = 0;
  let comboBase = 0;
  groups.forEach((group, index) => {
    const codeBase = dictionary.length;
    for (const value of group.dictionary) dictionary.push(value);
    grp.fill(index, row, row + group.length);
    CODED_COLUMNS.forEach((name, c) => {
      const target = coded[c];
      const source = group[name];
      for (let r = 0; r < group.length; r++) target[row + r] = source[r] + codeBase;
    });
    for (let r = 0; r < group.length; r++) {
      combo[row + r] = group.combo[r] === 0 ? 0 : group.combo[r] + comboBase;
    }
    for (const code of new Set(group.day)) days.add(group.dictionary[code - 1]);
    TEXT_COLUMNS.forEach((name, c) => {
      for (const value of group[name]) text[c].push(value);
    });
    const entries = group.comboEntries;
    let combos = 0;
    for (let i = 0; i < entries.combo.length; i++) {
      meta[0].push(entries.combo[i] + comboBase);
      meta[1].push(entries.key[i] + codeBase);
      meta[2].push(entries.value[i] + codeBase);
      combos = Math.max(combos, entries.combo[i]);
    }
    row += group.length;
    comboBase += combos;
  });
  const pagesAndFlags = [
    concatenated(groups, (g) => g.pages, Int32Array, total),
    concatenated(groups, (g) => g.isAsync, Uint8Array, total),
  ];
  const timesAndCredits = [
    concatenated(groups, (g) => g.eventTimeMs, Float64Array, total),
    concatenated(groups, (g) => g.creditsWhole, Float64Array, total),
    concatenated(groups, (g) => g.creditsMicros, Int32Array, total),
  ];
  const version = concatenated(groups, (g) => g.version, Int32Array, total);
  await appendColumns(connection, EVENT_STAGING, EVENT_COLUMNS, [
    grp,
    ...coded,
    ...pagesAndFlags,
    combo,
    ...timesAndCredits,
    version,
    ...text,
  ]);
  await appendColumns(connection, METADATA_STAGING, METADATA_COLUMNS, meta);
  return {
    dictionary,
    days: [...days].sort(),
    carriesMetadata: meta[0].length > 0,
    carriesVersions: version.some((v) => v > 1),
  };
}

function concatenated<A extends Int32Array | Uint8Array | Float64Array>(
  groups: readonly UsageEventColumns[],
  column: (group: UsageEventColumns) => A,
  type: { new (length: number): A },
  total: number,
): A {
  const target = new type(total);
  let offset = 0;
  for (const group of groups) {
    target.set(column(group), offset);
    offset += group.length;
  }
  return target;
}

/**
 * Replaces the temp table and appends the columns chunk by chunk. Replaced, not emptied:
 * the temp database is never checkpointed, so rows deleted from a kept table stayed in
 * memory and a long-running consumer grew with every event it had staged.
 */
async function appendColumns(
  connection: DuckDBConnection,
  table: string,
  columns: [string, DuckDBType][],
  values: ArrayLike<unknown>[],
): Promise<void> {
  const definition = columns.map(([name, type]) => `${name} ${type.toString()}`).join(', ');
  await connection.run(`CREATE OR REPLACE TEMP TABLE ${table} (${definition})`);
  const rowCount = values[0].length;
  if (rowCount === 0) return;
  const appender = await connection.createAppender(table, 'main', 'temp');
  const types = columns.map(([, type]) => type);
  for (let start = 0; start < rowCount; start += CHUNK_ROWS) {
    const size = Math.min(CHUNK_ROWS, rowCount - start);
    const chunk = DuckDBDataChunk.create(types, size);
    for (let c = 0; c < columns.length; c++) {
      chunk.setColumnValues(c, slice(values[c], start, start + size) as never);
    }
    appender.appendDataChunk(chunk);
  }
  appender.closeSync();
}

function slice(values: ArrayLike<unknown>, start: number, end: number): ArrayLike<unknown> {
  return Array.isArray(values)
    ? values.slice(start, end)
    : (values as Int32Array).subarray(start, end);
}
