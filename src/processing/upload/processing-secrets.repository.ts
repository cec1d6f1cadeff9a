import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DuckDbService } from '../../database/duckdb.service.js';

/** Server-side secrets generated once per data directory (URL signing keys). */
@Injectable()
export class ProcessingSecretsRepository {
  constructor(private readonly db: DuckDbService) {}

  async getOrCreate(name: string): Promise<string> {
    await this.db.run(
      `INSERT INTO processing_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
      [name, randomBytes(32).toString('base64url')],
    );
    const rows = await this.db.all<{ value: string }>(
      `SELECT value FROM processing_secrets WHERE name = $1`,
      [name],
    );
    return rows[0].value;
  }
}
