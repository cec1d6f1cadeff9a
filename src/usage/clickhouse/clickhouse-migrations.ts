import fs from 'node:fs';
import path from 'node:path';
import { Injectable, Logger } from '@nestjs/common';
import { findSqlDirectory } from '../../database/migrations.js';
import { ClickHouseService } from './clickhouse.service.js';

const MIGRATION_FILE = /^(\d{3})_[a-z0-9_]+\.sql$/;

/** The statements of one migration file: split at each `;` ending a line, comments dropped. */
export function migrationStatements(sql: string, database: string): string[] {
  return sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0)
    .map((statement) => statement.replaceAll('{database}', database));
}

/**
 * Applies the numbered files of `sql/clickhouse/` the server has not recorded yet. ClickHouse
 * has no transactional DDL, so every statement is written to be repeatable (IF NOT EXISTS):
 * a process that died half-way, or several ingest processes starting at once, just apply
 * the file again; its row in `schema_migrations` is written after its last statement.
 */
@Injectable()
export class ClickHouseMigrations {
  private readonly logger = new Logger(ClickHouseMigrations.name);

  constructor(private readonly clickhouse: ClickHouseService) {}

  async migrate(directory = path.join(findSqlDirectory(), 'clickhouse')): Promise<string[]> {
    const db = this.clickhouse.database;
    const files = fs
      .readdirSync(directory)
      .filter((name) => MIGRATION_FILE.test(name))
      .sort();
    const first = migrationStatements(fs.readFileSync(path.join(directory, files[0]), 'utf8'), db);
    // The database and the bookkeeping table come first in the first file.
    for (const statement of first.slice(0, 2)) await this.clickhouse.command(statement);
    const applied = new Set(
      (
        await this.clickhouse.rows<{ version: string }>(
          `SELECT version FROM ${db}.schema_migrations`,
        )
      ).map((row) => row.version),
    );
    const newlyApplied: string[] = [];
    for (const file of files) {
      const version = file.slice(0, 3);
      if (applied.has(version)) continue;
      const sql = fs.readFileSync(path.join(directory, file), 'utf8');
      for (const statement of migrationStatements(sql, db))
        await this.clickhouse.command(statement);
      await this.clickhouse.command(
        `INSERT INTO ${db}.schema_migrations (version, name, applied_at)
         VALUES ({version:String}, {name:String}, now())`,
        { version, name: file },
      );
      this.logger.log(`applied ClickHouse migration ${file}`);
      newlyApplied.push(file);
    }
    return newlyApplied;
  }
}
