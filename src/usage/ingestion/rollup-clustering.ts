import type { DuckDBConnection } from '@duckdb/node-api';
import { QUARTER_HOUR_COLUMNS, type QuarterHourTable } from '../core/quarter-hour-rollups.js';

/*
 * The clustering pass: keeps one org's rollup rows contiguous, so an export's scan, pruned by
 * DuckDB's zone maps on `org_key`, reads a few row groups whatever the store's size. Its work
 * follows what changed since the last pass, not the history
 * (docs/decisions/0409-clustering-pass-bounded-by-what-changed.md).
 */

/** A quarter-hour row's `sorted_run` until a pass sorts it (sql/121_usage_rollup_sorted_runs.sql). */
export const UNSORTED_RUN = 2_147_483_647;

/** Sorted runs a quarter-hour table keeps at most: a read costs about one row group per run. */
export const MAX_SORTED_RUNS = 8;

/** A keyed table is rewritten once the rows appended since its last rewrite reach this share. */
export const KEYED_GROWTH_SHARE = 1 / 8;

/** The keyless quarter-hour rollups: appended to, rows of one key added together by the pass. */
export const SORTED_RUN_TABLES: { table: QuarterHourTable; order: string; keys: string }[] = [
  {
    table: 'usage_quarter_hour',
    order: 'org_key, quarter',
    keys: 'org_key, org_id, quarter, product, feature, api_key_id, file_type',
  },
  {
    table: 'usage_quarter_hour_metadata',
    order: 'org_key, meta_key, quarter',
    keys: 'org_key, org_id, meta_key, quarter, meta_value, product, feature, api_key_id, file_type',
  },
  {
    table: 'usage_quarter_hour_dimension',
    order: 'org_key, dimension, quarter',
    keys: 'org_key, org_id, dimension, quarter, value',
  },
  {
    table: 'usage_quarter_hour_metadata_value',
    order: 'org_key, meta_key, quarter',
    keys: 'org_key, org_id, meta_key, quarter, meta_value',
  },
];

/** The narrow daily rollups, upserted by key: rewritten whole, in order, once grown enough. */
export const KEYED_TABLES: { table: string; order: string; primaryKey: string }[] = [
  {
    table: 'usage_daily_dimension',
    order: 'org_key, dimension, day, value',
    primaryKey: 'org_id, dimension, day, value',
  },
  {
    table: 'usage_daily_metadata_value',
    order: 'org_key, meta_key, day, meta_value',
    primaryKey: 'org_id, meta_key, day, meta_value',
  },
];

export interface SortedRun {
  run: number;
  rows: number;
}

/**
 * The first run number a pass merges with the unsorted rows (the new run replaces it and
 * every newer run), or null to merge none. Runs are size-tiered, as a binary counter: the
 * newest run joins the merge while it is no larger than what is merged so far, so run sizes
 * at least double from newest to oldest and each row is rewritten about log2(history /
 * one pass's rows) times over its life; beyond MAX_SORTED_RUNS the newest (smallest) runs
 * join too. `runs` oldest first.
 */
export function firstMergedRun(runs: readonly SortedRun[], unsortedRows: number): number | null {
  let merged = unsortedRows;
  let first: number | null = null;
  for (let i = runs.length - 1; i >= 0; i--) {
    // Runs kept: i + 1, plus the new one.
    if (runs[i].rows > merged && i + 2 <= MAX_SORTED_RUNS) break;
    merged += runs[i].rows;
    first = runs[i].run;
  }
  return first;
}

async function rowsOf(connection: DuckDBConnection, sql: string, params: string[] = []) {
  return (await connection.runAndReadAll(sql, params)).getRowObjectsJS();
}

/**
 * One quarter-hour table's share of a pass, inside the caller's transaction: the unsorted rows
 * and the runs firstMergedRun picks, added up by key (keys whose sum is zero left out) and
 * written back in the table's order as one new run. Returns the rows rewritten (0: nothing
 * was unsorted).
 */
export async function sortUnsortedRows(
  connection: DuckDBConnection,
  { table, order, keys }: (typeof SORTED_RUN_TABLES)[number],
): Promise<number> {
  const [{ unsorted }] = await rowsOf(
    connection,
    `SELECT count(*) AS unsorted FROM ${table} WHERE sorted_run >= ${UNSORTED_RUN}`,
  );
  if (Number(unsorted) === 0) return 0;
  const runs = (
    await rowsOf(
      connection,
      'SELECT run, row_count FROM usage_rollup_runs WHERE table_name = $1 ORDER BY run',
      [table],
    )
  ).map((r) => ({ run: Number(r.run), rows: Number(r.row_count) }));
  const first = firstMergedRun(runs, Number(unsorted)) ?? UNSORTED_RUN;
  const next = runs.length === 0 ? 1 : runs[runs.length - 1].run + 1;
  // Merged runs are always the newest: one range of `sorted_run` covers them and the
  // unsorted rows, and the zone maps skip every older run's row groups.
  const merged = `sorted_run >= ${first}`;
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE cluster_run AS
     SELECT ${keys}, sum(credits) AS credits, CAST(sum(request_count) AS BIGINT) AS request_count
     FROM ${table} WHERE ${merged}
     GROUP BY ${keys}
     HAVING sum(credits) <> 0 OR sum(request_count) <> 0`,
  );
  const [{ written }] = await rowsOf(connection, 'SELECT count(*) AS written FROM cluster_run');
  await connection.run(`DELETE FROM ${table} WHERE ${merged}`);
  await connection.run(
    `INSERT INTO ${table} (${QUARTER_HOUR_COLUMNS[table]}, sorted_run)
     SELECT ${QUARTER_HOUR_COLUMNS[table]}, ${next} FROM cluster_run ORDER BY ${order}`,
  );
  await connection.run('DROP TABLE temp.cluster_run');
  await connection.run(`DELETE FROM usage_rollup_runs WHERE table_name = $1 AND run >= ${first}`, [
    table,
  ]);
  await connection.run(`INSERT INTO usage_rollup_runs VALUES ($1, ${next}, ${Number(written)})`, [
    table,
  ]);
  return Number(unsorted) + runs.filter((r) => r.run >= first).reduce((n, r) => n + r.rows, 0);
}

/**
 * One keyed table's share of a pass, inside the caller's transaction: rewritten whole in its
 * order (a new sorted copy replaces it; its primary key built in bulk, which re-inserting
 * keys one by one through the index is 10x slower than) once the rows appended since its
 * last rewrite reach KEYED_GROWTH_SHARE of the rows that rewrite left, so each rewrite is
 * paid for by that many new rows. Returns the rows rewritten (0: not grown enough).
 */
export async function rewriteKeyedIfGrown(
  connection: DuckDBConnection,
  { table, order, primaryKey }: (typeof KEYED_TABLES)[number],
): Promise<number> {
  const [{ rows, sorted }] = await rowsOf(
    connection,
    `SELECT (SELECT count(*) FROM ${table}) AS rows,
            (SELECT max(row_count) FROM usage_rollup_runs WHERE table_name = $1) AS sorted`,
    [table],
  );
  const total = Number(rows);
  if (
    sorted !== null &&
    total - Number(sorted) < Math.max(1, Number(sorted) * KEYED_GROWTH_SHARE)
  ) {
    return 0;
  }
  await connection.run(
    `CREATE TABLE ${table}_clustered AS SELECT * FROM ${table} ORDER BY ${order}`,
  );
  await connection.run(`ALTER TABLE ${table}_clustered ADD PRIMARY KEY (${primaryKey})`);
  for (const column of ['org_key', 'credits', 'request_count']) {
    await connection.run(`ALTER TABLE ${table}_clustered ALTER COLUMN ${column} SET NOT NULL`);
  }
  await connection.run(`DROP TABLE ${table}`);
  await connection.run(`ALTER TABLE ${table}_clustered RENAME TO ${table}`);
  await connection.run('DELETE FROM usage_rollup_runs WHERE table_name = $1', [table]);
  await connection.run(`INSERT INTO usage_rollup_runs VALUES ($1, 1, ${total})`, [table]);
  return total;
}
