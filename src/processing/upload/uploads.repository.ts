import { Injectable } from '@nestjs/common';
import { DuckDbService } from '../../database/duckdb.service.js';

export interface UploadRecord {
  fileId: string;
  orgId: string;
  extension: string;
  /** `receiving`: a presigned PUT is streaming the bytes (the URL is claimed). */
  status: 'pending' | 'receiving' | 'complete';
  sizeBytes: number | null;
  expiresAt: Date | null;
}

interface UploadRow {
  file_id: string;
  org_id: string;
  extension: string;
  status: string;
  size_bytes: bigint | null;
  expires_at: Date | null;
}

@Injectable()
export class UploadsRepository {
  constructor(private readonly db: DuckDbService) {}

  async insert(
    fileId: string,
    orgId: string,
    extension: string,
    sizeBytes: number | null,
    expiresAt: Date | null,
  ): Promise<void> {
    await this.db.run(
      `INSERT INTO uploads (file_id, org_id, extension, status, size_bytes, created_at, uploaded_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, now(), CASE WHEN $4 = 'complete' THEN now() END, CAST($6 AS TIMESTAMPTZ))`,
      [
        fileId,
        orgId,
        extension,
        sizeBytes === null ? 'pending' : 'complete',
        sizeBytes,
        expiresAt?.toISOString() ?? null,
      ],
    );
  }

  async markComplete(fileId: string, sizeBytes: number): Promise<void> {
    await this.db.run(
      `UPDATE uploads SET status = 'complete', size_bytes = $2, uploaded_at = now() WHERE file_id = $1`,
      [fileId, sizeBytes],
    );
  }

  /** pending -> receiving, for one presigned PUT at a time; false when already used or claimed. */
  async claimPending(fileId: string): Promise<boolean> {
    const rows = await this.db.runReturning(
      `UPDATE uploads SET status = 'receiving' WHERE file_id = $1 AND status = 'pending'
       RETURNING file_id`,
      [fileId],
    );
    return rows.length > 0;
  }

  /** receiving -> pending: the PUT failed, the URL may be used again. */
  async releaseClaim(fileId: string): Promise<void> {
    await this.db.run(
      `UPDATE uploads SET status = 'pending' WHERE file_id = $1 AND status = 'receiving'`,
      [fileId],
    );
  }

  /** Claims a crash left behind (the PUT died with the process): pending again. */
  async releaseAllClaims(): Promise<number> {
    const rows = await this.db.runReturning(
      `UPDATE uploads SET status = 'pending' WHERE status = 'receiving' RETURNING file_id`,
    );
    return rows.length;
  }

  /**
   * Presigned uploads never sent whose URL expired over `graceSeconds` ago: nothing can
   * complete them any more (a PUT under way holds them as `receiving`). Rows only; a
   * pending upload has no file.
   */
  async removeExpiredPending(graceSeconds: number): Promise<number> {
    const rows = await this.db.runReturning(
      `DELETE FROM uploads WHERE status = 'pending'
         AND expires_at < now() - to_seconds(CAST($1 AS BIGINT))
       RETURNING file_id`,
      [graceSeconds],
    );
    return rows.length;
  }

  /** Complete uploads stored more than `seconds` ago: their rows go; the file ids, whose files the caller deletes after. */
  async removeUploadedBefore(seconds: number): Promise<string[]> {
    const rows = await this.db.runReturning<{ file_id: string }>(
      `DELETE FROM uploads WHERE status = 'complete'
         AND uploaded_at < now() - to_seconds(CAST($1 AS BIGINT))
       RETURNING file_id`,
      [seconds],
    );
    return rows.map((row) => row.file_id);
  }

  /**
   * Deletes an organization's upload unless a presigned PUT is streaming its bytes; the
   * status it had, or null when no such row was deleted (unknown, another org's, or receiving).
   */
  async removeOwned(fileId: string, orgId: string): Promise<UploadRecord['status'] | null> {
    const rows = await this.db.runReturning<{ status: string }>(
      `DELETE FROM uploads WHERE file_id = $1 AND org_id = $2 AND status <> 'receiving'
       RETURNING status`,
      [fileId, orgId],
    );
    return rows.length > 0 ? (rows[0].status as UploadRecord['status']) : null;
  }

  async remove(fileId: string): Promise<void> {
    await this.db.run(`DELETE FROM uploads WHERE file_id = $1`, [fileId]);
  }

  /** The file ids whose bytes must be kept: complete uploads. */
  async completeFileIds(): Promise<Set<string>> {
    const rows = await this.db.all<{ file_id: string }>(
      `SELECT file_id FROM uploads WHERE status = 'complete'`,
    );
    return new Set(rows.map((row) => row.file_id));
  }

  /** What the organization keeps stored: complete uploads and its jobs' unexpired results. */
  async storedBytes(orgId: string): Promise<number> {
    const rows = await this.db.all<{ bytes: bigint | number | null }>(
      `SELECT (SELECT COALESCE(SUM(size_bytes), 0) FROM uploads
                WHERE org_id = $1 AND status = 'complete')
            + (SELECT COALESCE(SUM(result_bytes), 0) FROM processing_jobs
                WHERE org_id = $1 AND result_key IS NOT NULL) AS bytes`,
      [orgId],
    );
    return Number(rows[0]?.bytes ?? 0);
  }

  async find(fileId: string): Promise<UploadRecord | null> {
    const rows = await this.db.all<UploadRow>(
      `SELECT file_id, org_id, extension, status, size_bytes, expires_at FROM uploads WHERE file_id = $1`,
      [fileId],
    );
    if (!rows.length) return null;
    const row = rows[0];
    return {
      fileId: row.file_id,
      orgId: row.org_id,
      extension: row.extension,
      status: row.status as UploadRecord['status'],
      sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
      expiresAt: row.expires_at,
    };
  }
}
