import type { ClickHouseService } from './clickhouse.service.js';

/** The statement settings of an insert every process must see once it returns (a cluster too). */
export const VISIBLE_WHEN_DONE = { settings: { insert_distributed_sync: 1 } };

/**
 * Deletes the row `where` selects in a table of created-then-deleted rows (alert rules,
 * webhook endpoints): `ReplacingMergeTree(revision)`, created at revision 1, deleted by a
 * copy of its `fields` at revision 2 with `deleted = 1`. False when there is no such row
 * or it is deleted already.
 */
export async function deleteRevisioned(
  clickhouse: ClickHouseService,
  table: string,
  fields: string,
  where: string,
  params: Record<string, string>,
): Promise<boolean> {
  const target = `${clickhouse.database}.${table}`;
  const [state] = await clickhouse.rows<{ rows: string; deleted: number }>(
    `SELECT count() AS rows, max(deleted) AS deleted FROM ${target} WHERE ${where}`,
    params,
  );
  if (state === undefined || Number(state.rows) === 0 || Number(state.deleted) === 1) {
    return false;
  }
  await clickhouse.command(
    `INSERT INTO ${target} (${fields}, revision, deleted)
     SELECT ${fields}, 2, 1 FROM ${target} WHERE ${where} AND deleted = 0 LIMIT 1`,
    params,
    VISIBLE_WHEN_DONE,
  );
  return true;
}
