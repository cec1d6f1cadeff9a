import type { DuckDBConnection, DuckDBType } from '@duckdb/node-api';
import { duckdb } from '../../database/duckdb-api.js';
import type { NormalizedUsageEvent } from './normalized-usage-event.js';

const { BOOLEAN, DuckDBDataChunk, INTEGER, VARCHAR } = duckdb;

/**
 * Columnar staging of a write's events into two connection-local temp tables.
 *
 * Each VARCHAR value crosses into DuckDB through its own native call, while an INTEGER
 * column is one copy of a typed array. Most of an event's text is low-cardinality (source,
 * org, day, product, feature, API key, file type, metadata keys and values), so those are
 * staged as codes into `dictionary`, which the SQL resolves with `$dict[code]`. Only the
 * event id, time, credits, job id and metadata JSON stay text: about 3 native calls per
 * event instead of 17 converted values and two lists (docs/benchmarks.md, "Usage store at
 * scale").
 */
export const EVENT_STAGING = 'usage_staging';
export const METADATA_STAGING = 'usage_staging_metadata';

const EVENT_COLUMNS: [string, DuckDBType][] = [
  ['grp', INTEGER],
  ['event_id', VARCHAR],
  ['source_c', INTEGER],
  ['org_c', INTEGER],
  ['event_time', VARCHAR],
  ['day_c', INTEGER],
  ['product_c', INTEGER],
  ['feature_c', INTEGER],
  ['api_key_c', INTEGER],
  ['file_type_c', INTEGER],
  ['pages', INTEGER],
  ['credits', VARCHAR],
  ['job_id', VARCHAR],
  ['is_async', BOOLEAN],
  ['metadata_json', VARCHAR],
  // Code of the event's groupable metadata entries as a combination (0: none).
  ['meta_c', INTEGER],
];
/** One row per entry of each distinct combination of metadata entries in the write. */
const METADATA_COLUMNS: [string, DuckDBType][] = [
  ['combo', INTEGER],
  ['pos', INTEGER],
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
}

/** Interns low-cardinality text as integer codes (1-based, for `list[code]`). */
class Dictionary {
  readonly values: string[] = [];
  private readonly codes = new Map<string, number>();

  code(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      this.values.push(value);
      code = this.values.length;
      this.codes.set(value, code);
    }
    return code;
  }
}

/** Stages `groups` (an event's `grp` is its group's position). */
export async function stageEvents(
  connection: DuckDBConnection,
  groups: NormalizedUsageEvent[][],
): Promise<StagedWrite> {
  const dict = new Dictionary();
  const days = new Set<string>();
  const rows: unknown[][] = EVENT_COLUMNS.map(() => []);
  const meta: number[][] = METADATA_COLUMNS.map(() => []);
  // Dashboards' metadata has few distinct combinations (team x env...), so the MAP column
  // and the metadata rollups are built once per combination, not once per event.
  const combos = new Map<string, number>();
  const comboCode = (metadata: Record<string, string>): number => {
    const codes: number[] = [];
    for (const key in metadata) codes.push(dict.code(key), dict.code(metadata[key]));
    if (codes.length === 0) return 0;
    const signature = codes.join(',');
    let combo = combos.get(signature);
    if (combo === undefined) {
      combo = combos.size + 1;
      combos.set(signature, combo);
      for (let i = 0; i < codes.length; i += 2) {
        meta[0].push(combo);
        meta[1].push(i / 2);
        meta[2].push(codes[i]);
        meta[3].push(codes[i + 1]);
      }
    }
    return combo;
  };
  groups.forEach((events, grp) => {
    for (const e of events) {
      days.add(e.day);
      const values = [
        grp,
        e.eventId,
        dict.code(e.source),
        dict.code(e.orgId),
        e.eventTime,
        dict.code(e.day),
        dict.code(e.product),
        dict.code(e.feature),
        dict.code(e.apiKeyId),
        dict.code(e.fileType),
        e.pages,
        e.credits,
        e.jobId,
        e.isAsync,
        e.metadataJson,
        comboCode(e.metadata),
      ];
      for (let c = 0; c < values.length; c++) rows[c].push(values[c]);
    }
  });
  await appendColumns(connection, EVENT_STAGING, EVENT_COLUMNS, rows);
  await appendColumns(connection, METADATA_STAGING, METADATA_COLUMNS, meta);
  return { dictionary: dict.values, days: [...days].sort(), carriesMetadata: meta[0].length > 0 };
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
  values: unknown[][],
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
      chunk.setColumnValues(c, values[c].slice(start, start + size) as never);
    }
    appender.appendDataChunk(chunk);
  }
  appender.closeSync();
}
