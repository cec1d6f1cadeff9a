import { Injectable } from '@nestjs/common';
import { duckdb } from '../../database/duckdb-api.js';
import { DuckDbService } from '../../database/duckdb.service.js';

export interface RevisedDay {
  date: string;
  firstExportedAt: string;
  changedAt: string;
}

/**
 * Where the marks live: each process's DuckDB file (one process), or the ClickHouse store
 * that every ingest process shares (src/usage/clickhouse/clickhouse-export-marks.repository.ts).
 */
export interface UsageExportMarksStore {
  /** Other processes write it too: what a process remembers of it goes stale. */
  readonly shared: boolean;
  /** Marks the days from `first` to `last` exported now, where not marked yet. */
  markExported(orgId: string, first: string, last: string): Promise<void>;
  /** Orgs with any exported day: only their writes are checked against the marks. */
  markedOrgs(): Promise<string[]>;
  /** Records a change of exported days of one org (days never exported are left alone). */
  markChanged(orgId: string, days: string[]): Promise<void>;
  revisedDays(orgId: string, first: string, last: string): Promise<RevisedDay[]>;
}

/** One (org, UTC day) marked exported, and when it changed afterwards (null: not since). */
export interface ExportMark {
  orgId: string;
  day: string;
  firstExportedMs: number;
  changedMs: number | null;
}

export const USAGE_EXPORT_MARKS_STORE = Symbol('USAGE_EXPORT_MARKS_STORE');

/** When each (org, UTC day) was first exported and last changed afterwards, in DuckDB. */
@Injectable()
export class UsageExportMarksRepository implements UsageExportMarksStore {
  readonly shared = false;

  constructor(private readonly db: DuckDbService) {}

  async markExported(orgId: string, first: string, last: string): Promise<void> {
    await this.db.run(
      `INSERT INTO usage_export_marks (org_id, day, first_exported_at)
       SELECT $1, CAST(d AS DATE), now()
       FROM range(CAST($2 AS DATE), CAST($3 AS DATE) + INTERVAL 1 DAY, INTERVAL 1 DAY) t(d)
       ON CONFLICT DO NOTHING`,
      [orgId, first, last],
    );
  }

  async markedOrgs(): Promise<string[]> {
    const rows = await this.db.all<{ org_id: string }>(
      'SELECT DISTINCT org_id FROM usage_export_marks',
    );
    return rows.map((r) => r.org_id);
  }

  async markChanged(orgId: string, days: string[]): Promise<void> {
    await this.db.run(
      `UPDATE usage_export_marks SET changed_at = now()
       WHERE org_id = $1 AND list_contains($2, CAST(day AS VARCHAR)) AND first_exported_at < now()`,
      [orgId, duckdb.listValue(days)],
    );
  }

  /** Every mark, times as epoch milliseconds (moving the store to ClickHouse copies them). */
  async allMarks(): Promise<ExportMark[]> {
    const rows = await this.db.all<{
      org_id: string;
      day: string;
      first_exported_at: bigint | number;
      changed_at: bigint | number | null;
    }>(
      `SELECT org_id, CAST(day AS VARCHAR) AS day, epoch_ms(first_exported_at) AS first_exported_at,
              epoch_ms(changed_at) AS changed_at
       FROM usage_export_marks ORDER BY org_id, day`,
    );
    return rows.map((r) => ({
      orgId: r.org_id,
      day: r.day,
      firstExportedMs: Number(r.first_exported_at),
      changedMs: r.changed_at === null ? null : Number(r.changed_at),
    }));
  }

  async revisedDays(orgId: string, first: string, last: string): Promise<RevisedDay[]> {
    const rows = await this.db.all<{
      day: string;
      first_exported_at: bigint | number;
      changed_at: bigint | number;
    }>(
      `SELECT CAST(day AS VARCHAR) AS day, epoch_ms(first_exported_at) AS first_exported_at,
              epoch_ms(changed_at) AS changed_at
       FROM usage_export_marks
       WHERE org_id = $1 AND day BETWEEN CAST($2 AS DATE) AND CAST($3 AS DATE)
         AND changed_at IS NOT NULL
       ORDER BY day`,
      [orgId, first, last],
    );
    return rows.map((r) => ({
      date: r.day,
      firstExportedAt: new Date(Number(r.first_exported_at)).toISOString(),
      changedAt: new Date(Number(r.changed_at)).toISOString(),
    }));
  }
}
