import { jobResultKey } from './blob-keys.js';
import type { BlobStore } from './blob-store.js';
import type { DuckDbService } from './duckdb.service.js';

/**
 * A migration step that moves data between the database and the payload files, run after
 * the SQL file of the same number commits. Each step is resumable: it finds the rows it has
 * not moved yet, so a crash midway costs nothing but the time to run it again.
 */
type DataMigration = (db: DuckDbService, blobs: BlobStore) => Promise<void>;

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

/**
 * 132: a stored request that lives as a file gives up its `__versions` key to the job's
 * `versions` column and its `__kind` key (the job's `type` names its operation); the file is
 * rewritten without them (written whole under a temporary name, then renamed).
 */
async function requestFileKeysToColumns(db: DuckDbService, blobs: BlobStore): Promise<void> {
  const rows = await db.all<{ job_id: string; request_key: string }>(
    `SELECT job_id, request_key FROM processing_jobs WHERE request_key IS NOT NULL`,
  );
  for (const { job_id: jobId, request_key: key } of rows) {
    let request: Record<string, unknown>;
    try {
      request = JSON.parse((await blobs.read(key)).toString('utf8')) as Record<string, unknown>;
    } catch {
      // A file already swept (its job deleted meanwhile) has nothing to move.
      continue;
    }
    if (!('__kind' in request) && !('__versions' in request)) continue;
    const { __versions: versions, ...body } = request;
    delete body.__kind;
    if (versions !== undefined) {
      await db.run(
        `UPDATE processing_jobs SET versions = $2 WHERE job_id = $1 AND versions IS NULL`,
        [jobId, JSON.stringify(versions)],
      );
    }
    await blobs.write(key, Buffer.from(JSON.stringify(body), 'utf8'));
  }
}

export const DATA_MIGRATIONS: Readonly<Record<string, DataMigration>> = {
  '070': jobResultsToFiles,
  '132': requestFileKeysToColumns,
};
