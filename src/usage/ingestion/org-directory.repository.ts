import { Injectable } from '@nestjs/common';
import { duckdb } from '../../database/duckdb-api.js';
import { DuckDbService } from '../../database/duckdb.service.js';

/**
 * Which organizations exist, for refusing usage of unknown orgs. Orgs are never deleted,
 * so a positive answer is cached for the life of the process.
 */
@Injectable()
export class OrgDirectoryRepository {
  private readonly known = new Set<string>();

  constructor(private readonly db: DuckDbService) {}

  async existing(orgIds: Set<string>): Promise<Set<string>> {
    const missing = [...orgIds].filter((id) => !this.known.has(id));
    if (missing.length > 0) {
      const rows = await this.db.all<{ id: string }>(
        'SELECT id FROM organizations WHERE list_contains($1, id)',
        [duckdb.listValue(missing)],
      );
      for (const row of rows) this.known.add(row.id);
    }
    return new Set([...orgIds].filter((id) => this.known.has(id)));
  }
}
