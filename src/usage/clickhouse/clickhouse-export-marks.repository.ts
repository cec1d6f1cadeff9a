import { Injectable } from '@nestjs/common';
import type {
  ExportMark,
  RevisedDay,
  UsageExportMarksStore,
} from '../export/usage-export-marks.repository.js';
import { ClickHouseService } from './clickhouse.service.js';

/** Marks copied per statement (their texts are bound into it). */
const MARKS_PER_STATEMENT = 2_000;
/** The statement settings of an insert every process must see once it returns (a cluster too). */
const VISIBLE_WHEN_DONE = { settings: { insert_distributed_sync: 1 } };

/**
 * Export marks in the ClickHouse store, shared by every ingest and API process: an export
 * answered by one process and a change written by another meet here. A day's first export
 * is the earliest mark (two processes may both mark it), its change the latest change.
 */
@Injectable()
export class ClickHouseExportMarksRepository implements UsageExportMarksStore {
  readonly shared = true;

  constructor(private readonly clickhouse: ClickHouseService) {}

  async markExported(orgId: string, first: string, last: string): Promise<void> {
    const db = this.clickhouse.database;
    await this.clickhouse.command(
      `INSERT INTO ${db}.usage_export_marks (org_id, day, first_exported_ms)
       SELECT {org:String}, day, {now:UInt64}
       FROM (
         SELECT addDays({first:Date}, number) AS day FROM numbers({days:UInt64})
       )
       WHERE day NOT IN (
         SELECT day FROM ${db}.usage_export_marks
         WHERE org_id = {org:String} AND day BETWEEN {first:Date} AND {last:Date}
       )`,
      { org: orgId, first, last, days: daysFrom(first, last), now: Date.now() },
      VISIBLE_WHEN_DONE,
    );
  }

  async markedOrgs(): Promise<string[]> {
    const rows = await this.clickhouse.rows<{ org_id: string }>(
      `SELECT DISTINCT org_id FROM ${this.clickhouse.database}.usage_export_marks`,
    );
    return rows.map((r) => r.org_id);
  }

  async markChanged(orgId: string, days: string[]): Promise<void> {
    const db = this.clickhouse.database;
    await this.clickhouse.command(
      `INSERT INTO ${db}.usage_export_changes (org_id, day, changed_ms)
       SELECT org_id, day, {now:UInt64}
       FROM ${db}.usage_export_marks
       WHERE org_id = {org:String} AND has({days:Array(Date)}, day)
       GROUP BY org_id, day
       HAVING min(first_exported_ms) < {now:UInt64}`,
      { org: orgId, days, now: Date.now() },
      VISIBLE_WHEN_DONE,
    );
  }

  /**
   * Adds marks copied from another store (the DuckDB one, when moving). A day marked twice
   * keeps its earliest export and latest change, so copying again changes no answer.
   */
  async importMarks(marks: readonly ExportMark[]): Promise<void> {
    for (let i = 0; i < marks.length; i += MARKS_PER_STATEMENT) {
      const slice = marks.slice(i, i + MARKS_PER_STATEMENT);
      await this.insertDayTimes(
        'usage_export_marks (org_id, day, first_exported_ms)',
        slice.map((m) => ({ orgId: m.orgId, day: m.day, ms: m.firstExportedMs })),
      );
      await this.insertDayTimes(
        'usage_export_changes (org_id, day, changed_ms)',
        slice.flatMap((m) =>
          m.changedMs === null ? [] : [{ orgId: m.orgId, day: m.day, ms: m.changedMs }],
        ),
      );
    }
  }

  /** Rows (org, day, epoch ms) into `target` (a table and its three columns), one statement. */
  private async insertDayTimes(
    target: string,
    rows: readonly { orgId: string; day: string; ms: number }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await this.clickhouse.command(
      `INSERT INTO ${this.clickhouse.database}.${target}
       SELECT org, toDate(day), toUInt64(ms) FROM system.one
       ARRAY JOIN {orgs:Array(String)} AS org, {days:Array(String)} AS day,
         {times:Array(String)} AS ms`,
      {
        orgs: rows.map((r) => r.orgId),
        days: rows.map((r) => r.day),
        times: rows.map((r) => String(r.ms)),
      },
      VISIBLE_WHEN_DONE,
    );
  }

  async revisedDays(orgId: string, first: string, last: string): Promise<RevisedDay[]> {
    const db = this.clickhouse.database;
    const range = 'org_id = {org:String} AND day BETWEEN {first:Date} AND {last:Date}';
    const rows = await this.clickhouse.rows<{
      date: string;
      first_exported_ms: string;
      changed_ms: string;
    }>(
      `SELECT toString(day) AS date, first_exported_ms, changed_ms
       FROM (
         SELECT day, min(first_exported_ms) AS first_exported_ms
         FROM ${db}.usage_export_marks WHERE ${range} GROUP BY day
       ) AS marks
       ALL INNER JOIN (
         SELECT day, max(changed_ms) AS changed_ms
         FROM ${db}.usage_export_changes WHERE ${range} GROUP BY day
       ) AS changes USING day
       ORDER BY day`,
      { org: orgId, first, last },
    );
    return rows.map((r) => ({
      date: r.date,
      firstExportedAt: new Date(Number(r.first_exported_ms)).toISOString(),
      changedAt: new Date(Number(r.changed_ms)).toISOString(),
    }));
  }
}

/** The days from `first` to `last` (yyyy-mm-dd, inclusive). */
function daysFrom(first: string, last: string): number {
  return (
    Math.round((Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 86_400_000) +
    1
  );
}
