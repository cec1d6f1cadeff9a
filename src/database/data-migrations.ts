import { jobResultKey } from './blob-keys.js';
import type { BlobStore } from './blob-store.js';
import type { DuckDbService } from './duckdb.service.js';

/**
 * A migration step that moves data between the database and the payload files, run after
 * the SQL file of the same number commits. Each step is resumable: it finds the rows it has
 * not moved yet, so a crash midway costs nothing but the time to run it again.
 */
export type DataMigration = (db: DuckDbService, blobs: BlobStore) => Promise<void>;

/** 070: each stored job result becomes a file; the row keeps its key, size and hash. */
async function jobResultsToFiles(db: DuckDbService, blobs: BlobStore): Promise<void> {
  const pending = await db.all<{ job_id: string }>(
    `SELECT job_id FROM processing_jobs WHERE result IS NOT NULL`,
  );
  // One at a time: a result can be several MB, and the step must fit the memory a start has.
  for (const { job_id: jobId } of pending) {
    const rows = await db.all<{ result: string | null }>(
      `SELECT CAST(result AS VARCHAR) AS result FROM processing_jobs WHERE job_id = $1`,
      [jobId],
    );
    const result = rows[0]?.result;
    if (!result) continue;
    const stored = await blobs.write(jobResultKey(jobId), Buffer.from(result, 'utf8'));
    await db.run(
      `UPDATE processing_jobs SET result = NULL, result_key = $2, result_bytes = $3,
         result_sha256 = $4 WHERE job_id = $1`,
      [jobId, stored.key, stored.bytes, stored.sha256],
    );
  }
}

export const DATA_MIGRATIONS: Readonly<Record<string, DataMigration>> = {
  '070': jobResultsToFiles,
};
