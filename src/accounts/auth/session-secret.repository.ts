import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DuckDbService } from '../../database/duckdb.service.js';

/**
 * Secrets of the accounts plane generated once per data directory, so sessions survive a
 * restart and every process that opens the same DuckDB file agrees on them.
 */
@Injectable()
export class SessionSecretRepository {
  constructor(private readonly db: DuckDbService) {}

  async getOrCreate(name: string): Promise<Buffer> {
    // Read first: an export replica opens a read-only snapshot that already holds it.
    const existing = await this.read(name);
    if (existing) return existing;
    await this.db.run(
      `INSERT INTO account_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
      [name, randomBytes(32).toString('base64url')],
    );
    return (await this.read(name))!;
  }

  private async read(name: string): Promise<Buffer | null> {
    const rows = await this.db.all<{ value: string }>(
      `SELECT value FROM account_secrets WHERE name = $1`,
      [name],
    );
    return rows.length > 0 ? Buffer.from(rows[0].value, 'base64url') : null;
  }
}
