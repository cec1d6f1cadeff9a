import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { ClickHouseMigrations } from '../clickhouse/clickhouse-migrations.js';
import { ClickHouseService } from '../clickhouse/clickhouse.service.js';
import { ClickHouseUsageStoreRepository } from '../clickhouse/clickhouse-usage-store.repository.js';
import { formatCredits } from '../core/decimal-credits.js';
import { normalizeToColumns } from '../ingestion/usage-event-columns.js';
import { USAGE_EVENT_TYPE } from '../usage-event.js';
import { UsageAlertRepository } from '../alerts/usage-alert.repository.js';
import { UsageExportMarksRepository } from '../export/usage-export-marks.repository.js';
import { ClickHouseAlertRepository } from '../clickhouse/clickhouse-alert.repository.js';
import { ClickHouseExportMarksRepository } from '../clickhouse/clickhouse-export-marks.repository.js';
import {
  UsageEventHistoryRepository,
  type StoredUsageEvent,
} from './usage-event-history.repository.js';

export interface BackfillReport {
  to: 'clickhouse';
  read: number;
  inserted: number;
  /** Events the target already had (a backfill run again, or events ingested there since). */
  duplicates: number;
  source: { events: number; credits: string };
  target: { events: number; credits: string };
  /** Usage-alert rules and recorded crossings copied (the ones the target did not have). */
  alerts: { rules: number; firings: number };
  /** Days marked exported, copied with their changes (the revised-days list carries over). */
  exportMarks: number;
  /**
   * The target holds as many events and credits as the source: true for a target that took
   * no live events of its own meanwhile (the documented order: backfill, then switch).
   */
  exact: boolean;
}

/** No event the store once accepted is refused for its age or time when it is replayed. */
const REPLAY_POLICY = {
  maxAgeMs: Number.MAX_SAFE_INTEGER,
  lateWindowMs: Number.MAX_SAFE_INTEGER,
  maxFutureSkewMs: Number.MAX_SAFE_INTEGER,
};

/**
 * Moves a store from DuckDB to ClickHouse: replays the DuckDB events table, event by event,
 * through the ClickHouse writer (the same normalization, dedupe and rollups as live
 * ingestion), then compares the totals. Running it again inserts nothing twice.
 */
@Injectable()
export class UsageBackfillService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly history: UsageEventHistoryRepository,
    private readonly migrations: ClickHouseMigrations,
    private readonly clickhouse: ClickHouseService,
    private readonly target: ClickHouseUsageStoreRepository,
    private readonly alerts: UsageAlertRepository,
    private readonly targetAlerts: ClickHouseAlertRepository,
    private readonly marks: UsageExportMarksRepository,
    private readonly targetMarks: ClickHouseExportMarksRepository,
  ) {}

  /**
   * The alert rules, their recorded crossings and the export marks, which the ClickHouse
   * mode keeps in the shared store too (docs/decisions/0355-*): a rule not copied would
   * never be evaluated again, a crossing not copied would fire again.
   */
  private async copyAlertsAndMarks(): Promise<Pick<BackfillReport, 'alerts' | 'exportMarks'>> {
    const present = new Set((await this.targetAlerts.allRules()).map((r) => r.alertId));
    const rules = (await this.alerts.allRules()).filter((r) => !present.has(r.alertId));
    for (const rule of rules) await this.targetAlerts.insertRule(rule);
    const fired = new Set(
      (await this.targetAlerts.firedPeriods()).map((f) => `${f.alertId}|${f.periodStart}`),
    );
    const firings = (await this.alerts.allFirings()).filter(
      (f) => !fired.has(`${f.alertId}|${f.periodStart}`),
    );
    for (const firing of firings) await this.targetAlerts.importFiring(firing);
    const marks = await this.marks.allMarks();
    await this.targetMarks.importMarks(marks);
    return {
      alerts: { rules: rules.length, firings: firings.length },
      exportMarks: marks.length,
    };
  }

  async toClickHouse(): Promise<BackfillReport> {
    await this.migrations.migrate();
    const report = { read: 0, inserted: 0, duplicates: 0 };
    let pending: StoredUsageEvent[] = [];
    const flush = async () => {
      const { columns, rejected } = normalizeToColumns(
        pending.map(toCloudEvent),
        new Date(),
        REPLAY_POLICY,
      );
      if (rejected.length > 0) {
        const { index, rejection } = rejected[0];
        throw new Error(
          `stored event ${pending[index].event_id} does not replay: ${rejection.reason} (${rejection.detail})`,
        );
      }
      const written = await this.target.writeBatch([columns], this.config.usage.cardinality);
      report.inserted += written.groups[0].inserted;
      report.duplicates += written.groups[0].duplicates;
      report.read += pending.length;
      pending = [];
    };
    for await (const chunk of this.history.events()) {
      pending.push(...chunk);
      if (pending.length >= this.target.maxEventsPerWrite) await flush();
    }
    if (pending.length > 0) await flush();
    const source = await this.history.totals();
    const [row] = await this.clickhouse.rows<{ events: string; credits: string }>(
      `SELECT count() AS events, toString(sum(credits)) AS credits
       FROM ${this.clickhouse.database}.usage_events FINAL`,
    );
    const target = { events: Number(row.events), credits: formatCredits(row.credits) };
    const sourceTotals = { ...source, credits: formatCredits(source.credits) };
    return {
      to: 'clickhouse',
      ...report,
      ...(await this.copyAlertsAndMarks()),
      source: sourceTotals,
      target,
      exact: target.events === sourceTotals.events && target.credits === sourceTotals.credits,
    };
  }
}

/** The stored event as the CloudEvent it was ingested from (metadata from its JSON text). */
function toCloudEvent(e: StoredUsageEvent): unknown {
  return {
    specversion: '1.0',
    id: e.event_id,
    source: e.source,
    type: USAGE_EVENT_TYPE,
    time: e.event_time,
    data: {
      orgId: e.org_id,
      apiKeyId: e.api_key_id,
      product: e.product,
      feature: e.feature,
      fileType: e.file_type,
      pages: e.pages,
      credits: e.credits,
      jobId: e.job_id,
      async: e.is_async,
      version: e.version,
      metadata: e.metadata_json === null ? null : (JSON.parse(e.metadata_json) as unknown),
    },
  };
}
