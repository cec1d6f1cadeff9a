import { Injectable } from '@nestjs/common';
import { DuckDbService } from '../../database/duckdb.service.js';

export interface UploadRecord {
  fileId: string;
  orgId: string;
  extension: string;
  status: 'pending' | 'complete';
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
