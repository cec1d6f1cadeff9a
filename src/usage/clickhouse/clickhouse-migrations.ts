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
 * A shard file's statements as the cluster's front server (CLICKHOUSE_URL) applies them, so
 * one file per version serves both: a table with a `shard_hint` column becomes a
 * `Distributed` table over the shards' one sharded by it (a row for every shard), one with an
 * `org_id` column a `Distributed` table sharded by the org (an org's events, and so every
 * copy of one event, on one shard: its dedupe stays local), any other table (the migrations'
 * bookkeeping, the write fences) a table of the front server itself, so that what one
 * process records there every other one's statements see at once. ALTER and DROP statements
 * apply to those tables as written; materialized views and data statements stay on the
 * shards, where the tables they read and feed are.
 */
export function clusterStatements(sql: string, database: string, cluster: string): string[] {
  const statements: string[] = [];
  for (const statement of migrationStatements(sql, '{database}')) {
    const table = /^CREATE TABLE IF NOT EXISTS \{database\}\.(\w+)\s*\(/.exec(statement);
    if (table) {
      const columns = statement.slice(0, statement.search(/\)\s*ENGINE\s*=/));
      const key = /\bshard_hint\b/.test(columns)
        ? 'shard_hint'
        : /\borg_id\b/.test(columns)
          ? 'cityHash64(org_id)'
          : null;
      statements.push(
        key === null
          ? statement
          : `CREATE TABLE IF NOT EXISTS {database}.${table[1]} AS {database}_shard.${table[1]}
ENGINE = Distributed({cluster}, {database}_shard, ${table[1]}, ${key})`,
      );
    } else if (/^(CREATE DATABASE|ALTER TABLE|DROP TABLE)\b/.test(statement)) {
      statements.push(statement);
    }
  }
  return statements.map((statement) =>
    statement.replaceAll('{database}', database).replaceAll('{cluster}', cluster),
  );
}

/** Where a migration file is applied: a server (a shard, or the only one) and how. */
interface Target {
  db: string;
  url?: string;
  statementsOf: (sql: string) => string[];
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
   * One server: `sql/clickhouse/` in CLICKHOUSE_DATABASE. A cluster: each file on every
   * shard in `<database>_shard`, then the same file as clusterStatements makes it on
   * CLICKHOUSE_URL's server, before the next file (a `Distributed` table is made while the
   * shards' table it copies exists).
   */
  async migrate(directory = path.join(findSqlDirectory(), 'clickhouse')): Promise<string[]> {
    const { cluster, database } = this.clickhouse;
    const targets: Target[] =
      cluster === null
        ? [{ db: database, statementsOf: (sql) => migrationStatements(sql, database) }]
        : [
            ...this.clickhouse.shardUrls.map((url) => ({
              db: `${database}_shard`,
              url,
              statementsOf: (sql: string) => migrationStatements(sql, `${database}_shard`),
            })),
            { db: database, statementsOf: (sql) => clusterStatements(sql, database, cluster) },
          ];
    const files = fs
      .readdirSync(directory)
      .filter((name) => MIGRATION_FILE.test(name))
      .sort()
      .map((name) => ({ name, sql: fs.readFileSync(path.join(directory, name), 'utf8') }));
    const recorded = await Promise.all(
      targets.map((target) => this.recorded(target, files[0].sql)),
    );
    const applied: string[] = [];
    for (const file of files) {
      for (const [i, target] of targets.entries()) {
        if (recorded[i].has(file.name.slice(0, 3))) continue;
        await this.apply(target, file);
        applied.push(file.name);
      }
    }
    return applied;
  }

  /** The versions `target` recorded, after making its database and bookkeeping table. */
  private async recorded(target: Target, firstFile: string): Promise<Set<string>> {
    const on = { url: target.url };
    // The database and the bookkeeping table come first in the first file.
    for (const statement of target.statementsOf(firstFile).slice(0, 2)) {
      await this.clickhouse.command(statement, {}, on);
    }
    const rows = await this.clickhouse.rows<{ version: string }>(
      `SELECT version FROM ${target.db}.schema_migrations`,
      {},
      on,
    );
    return new Set(rows.map((row) => row.version));
  }

  private async apply(target: Target, file: { name: string; sql: string }): Promise<void> {
    const on = { url: target.url };
    for (const statement of target.statementsOf(file.sql)) {
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
      `INSERT INTO ${target.db}.schema_migrations (version, name, applied_at)
       VALUES ({version:String}, {name:String}, now())`,
      { version: file.name.slice(0, 3), name: file.name },
      on,
    );
    const where = target.url ? ` on ${target.url}` : '';
    this.logger.log(`applied ClickHouse migration ${file.name} to ${target.db}${where}`);
  }
}
