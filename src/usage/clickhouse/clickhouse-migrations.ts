import fs from 'node:fs';
import path from 'node:path';
import { Injectable, Logger } from '@nestjs/common';
import { findSqlDirectory } from '../../database/migrations.js';
import { ClickHouseService } from './clickhouse.service.js';

const MIGRATION_FILE = /^(\d{3})_[a-z0-9_]+\.sql$/;

/** The statements of one migration file: split at each `;` ending a line, comments dropped. */
export function migrationStatements(sql: string, database: string, cluster = ''): string[] {
  return sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0)
    .map((statement) =>
      statement.replaceAll('{database}', database).replaceAll('{cluster}', cluster),
    );
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

  /**
   * One server: `sql/clickhouse/` in CLICKHOUSE_DATABASE. A cluster: those files on every
   * shard in `<database>_shard`, then `sql/clickhouse/cluster/` (the Distributed tables) on
   * CLICKHOUSE_URL's server.
   */
  async migrate(directory = path.join(findSqlDirectory(), 'clickhouse')): Promise<string[]> {
    const { cluster, database } = this.clickhouse;
    if (cluster === null) return this.migrateServer(directory, database);
    const applied: string[] = [];
    for (const url of this.clickhouse.shardUrls) {
      applied.push(...(await this.migrateServer(directory, `${database}_shard`, url)));
    }
    applied.push(
      ...(await this.migrateServer(path.join(directory, 'cluster'), database, undefined, cluster)),
    );
    return applied;
  }

  private async migrateServer(
    directory: string,
    db: string,
    url?: string,
    cluster = '',
  ): Promise<string[]> {
    const on = { url };
    const files = fs
      .readdirSync(directory)
      .filter((name) => MIGRATION_FILE.test(name))
      .sort();
    const statementsOf = (file: string) =>
      migrationStatements(fs.readFileSync(path.join(directory, file), 'utf8'), db, cluster);
    // The database and the bookkeeping table come first in the first file.
    for (const statement of statementsOf(files[0]).slice(0, 2)) {
      await this.clickhouse.command(statement, {}, on);
    }
    const recorded = await this.clickhouse.rows<{ version: string }>(
      `SELECT version FROM ${db}.schema_migrations`,
      {},
      on,
    );
    const applied = new Set(recorded.map((row) => row.version));
    const newlyApplied: string[] = [];
    for (const file of files) {
      const version = file.slice(0, 3);
      if (applied.has(version)) continue;
      for (const statement of statementsOf(file)) {
        await this.clickhouse.command(statement, {}, on).catch((error: unknown) => {
          // 18.x has no ADD COLUMN IF NOT EXISTS: a file applied again after a crash finds
          // the columns of its ALTER (one ALTER adds them all at once) already there.
          if (!(
            /^ALTER TABLE \S+\s+ADD COLUMN/.test(statement) && /already exists/i.test(String(error))
          )) {
            throw error;
          }
        });
      }
      await this.clickhouse.command(
        `INSERT INTO ${db}.schema_migrations (version, name, applied_at)
         VALUES ({version:String}, {name:String}, now())`,
        { version, name: file },
        on,
      );
      this.logger.log(`applied ClickHouse migration ${file} to ${db}${url ? ` on ${url}` : ''}`);
      newlyApplied.push(file);
    }
    return newlyApplied;
  }
}
