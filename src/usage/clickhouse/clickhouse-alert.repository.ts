import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import type { Transaction } from '../../database/duckdb.service.js';
import {
  UsageAlertRepository,
  type FiredScope,
  firingFromRow,
  type FiringFieldsRow,
  ruleFromRow,
  type RuleFieldsRow,
  type UsageAlertStore,
} from '../alerts/usage-alert.repository.js';
import type { AlertFiring, AlertRule } from '../alerts/usage-alert.types.js';
import type { UsageAlertNotification } from '../usage-alerts.contract.js';
import { ClickHouseService } from './clickhouse.service.js';
import { deleteRevisioned, VISIBLE_WHEN_DONE } from './revisioned-rows.js';

/**
 * How long a claim of a crossing waits before reading who won: longer than any process's
 * claim statement takes between its check and its insert, so every claimant reads the same
 * claims and agrees on the winner (docs/decisions/0355-usage-alerts-and-marks-in-the-shared-store.md).
 */
export const CLAIM_SETTLE_MS = 1_000;

interface RuleRow extends RuleFieldsRow {
  /** Epoch milliseconds (UInt64, as text). */
  created_ms: string;
}

interface FiringRow extends FiringFieldsRow {
  /** Epoch milliseconds (UInt64, as text). */
  fired_ms: string;
}

const RULE_FIELDS = `org_id, alert_id, name, measure, period, threshold, product, metadata_key,
  metadata_value, webhook_url, created_ms`;

/**
 * Usage-alert rules and crossings in the ClickHouse store, shared by every ingest and API
 * process; the outbox of a crossing stays in the DuckDB file of the process that won it,
 * which hands it to its own webhook delivery.
 *
 * ClickHouse has no unique key to decide "once", so a crossing is claimed: a process that
 * finds the crossing adds its claim unless one is there (one statement), waits
 * CLAIM_SETTLE_MS, and reads the claims of that alert and period; the smallest firing id
 * wins for everyone, and only its process records the outbox row.
 */
@Injectable()
export class ClickHouseAlertRepository implements UsageAlertStore {
  readonly shared = true;

  constructor(
    private readonly clickhouse: ClickHouseService,
    private readonly local: UsageAlertRepository,
  ) {}

  async insertRule(rule: AlertRule): Promise<void> {
    await this.clickhouse.command(
      `INSERT INTO ${this.clickhouse.database}.usage_alert_rules (${RULE_FIELDS}, revision, deleted)
       SELECT {org:String}, {alert:String}, {name:String}, {measure:String}, {period:String},
              {threshold:String}, {product:Nullable(String)}, {key:Nullable(String)},
              {value:Nullable(String)}, {webhook:String}, {created:UInt64}, 1, 0`,
      {
        org: rule.orgId,
        alert: rule.alertId,
        name: rule.name,
        measure: rule.measure,
        period: rule.period,
        threshold: rule.threshold,
        product: rule.product,
        key: rule.metadataKey,
        value: rule.metadataValue,
        webhook: rule.webhookUrl,
        created: Date.parse(rule.createdAt),
      },
      VISIBLE_WHEN_DONE,
    );
  }

  async allRules(): Promise<AlertRule[]> {
    // A deleted rule has a second row (revision 2, deleted 1) with the same fields.
    const rows = await this.clickhouse.rows<RuleRow>(
      `SELECT alert_id, any(org_id) AS org_id, any(name) AS name, any(measure) AS measure,
              any(period) AS period, any(threshold) AS threshold, any(product) AS product,
              any(metadata_key) AS metadata_key, any(metadata_value) AS metadata_value,
              any(webhook_url) AS webhook_url, toString(any(created_ms)) AS created_ms
       FROM ${this.clickhouse.database}.usage_alert_rules
       GROUP BY alert_id
       HAVING max(deleted) = 0
       ORDER BY created_ms, alert_id`,
    );
    return rows.map((row) => ruleFromRow(row, Number(row.created_ms)));
  }

  /**
   * Rules ever created and rules deleted: both only grow (ids are never reused, a deletion
   * is final) and neither changes when the table merges a rule's two rows into one.
   */
  async rulesVersion(): Promise<string> {
    const [row] = await this.clickhouse.rows<{ created: string; deleted: string }>(
      `SELECT uniqExact(alert_id) AS created, uniqExactIf(alert_id, deleted = 1) AS deleted
       FROM ${this.clickhouse.database}.usage_alert_rules`,
    );
    return `${row.created}/${row.deleted}`;
  }

  deleteRule(orgId: string, alertId: string): Promise<boolean> {
    return deleteRevisioned(
      this.clickhouse,
      'usage_alert_rules',
      RULE_FIELDS,
      'org_id = {org:String} AND alert_id = {alert:String}',
      { org: orgId, alert: alertId },
    );
  }

  async firedPeriods(scope?: FiredScope): Promise<{ alertId: string; periodStart: string }[]> {
    const within = scope
      ? 'WHERE has({orgs:Array(String)}, org_id) AND period_start >= {since:Date}'
      : '';
    // Not aliased `period_start`: ClickHouse would read the text alias in the WHERE clause.
    const rows = await this.clickhouse.rows<{ alert_id: string; first_day: string }>(
      `SELECT DISTINCT alert_id, toString(period_start) AS first_day
       FROM ${this.clickhouse.database}.usage_alert_firings ${within}`,
      scope ? { orgs: scope.orgIds, since: scope.since } : {},
    );
    return rows.map((r) => ({ alertId: r.alert_id, periodStart: r.first_day }));
  }

  async firings(orgId: string, limit: number): Promise<AlertFiring[]> {
    const rows = await this.clickhouse.rows<FiringRow>(
      `SELECT * FROM (
         SELECT firing_id, alert_id, org_id, toString(period_start) AS period_start,
                toString(period_end) AS period_end, total, toString(fired_ms) AS fired_ms, payload
         FROM ${this.clickhouse.database}.usage_alert_firings
         WHERE org_id = {org:String}
         ORDER BY alert_id, period_start, firing_id
         LIMIT 1 BY alert_id, period_start
       )
       ORDER BY fired_ms DESC, firing_id
       LIMIT ${Math.max(0, Math.floor(limit))}`,
      // 18.x takes only a number literal after LIMIT, not an expression.
      { org: orgId },
    );
    return rows.map((row) => firingFromRow(row, Number(row.fired_ms)));
  }

  /** Adds a crossing another store recorded (moving from DuckDB), unless its period has one. */
  async importFiring(firing: AlertFiring): Promise<void> {
    await this.claim(firing);
  }

  async recordFiring(firing: AlertFiring, webhookUrl: string): Promise<boolean> {
    const db = this.clickhouse.database;
    const period = {
      org: firing.orgId,
      alert: firing.alertId,
      start: firing.periodStart,
    };
    const ofPeriod =
      'org_id = {org:String} AND alert_id = {alert:String} AND period_start = {start:Date}';
    await this.claim(firing);
    await sleep(CLAIM_SETTLE_MS);
    const [winner] = await this.clickhouse.rows<{ firing_id: string }>(
      `SELECT firing_id FROM ${db}.usage_alert_firings WHERE ${ofPeriod}
       ORDER BY firing_id LIMIT 1`,
      period,
    );
    if (winner?.firing_id !== firing.firingId) return false;
    return this.local.recordFiring(firing, webhookUrl);
  }

  /** Inserts `firing` as a claim of its (alert, period) unless the period has one (one statement). */
  private async claim(firing: AlertFiring): Promise<void> {
    const db = this.clickhouse.database;
    await this.clickhouse.command(
      `INSERT INTO ${db}.usage_alert_firings
         (org_id, alert_id, period_start, period_end, firing_id, total, fired_ms, payload)
       SELECT {org:String}, {alert:String}, {start:Date}, {end:Date}, {firing:String},
              {total:String}, {fired:UInt64}, {payload:String}
       FROM system.one
       WHERE (SELECT count() FROM ${db}.usage_alert_firings
              WHERE org_id = {org:String} AND alert_id = {alert:String}
                AND period_start = {start:Date}) = 0`,
      {
        org: firing.orgId,
        alert: firing.alertId,
        start: firing.periodStart,
        end: firing.periodEnd,
        firing: firing.firingId,
        total: firing.total,
        fired: Date.parse(firing.firedAt),
        payload: firing.payload,
      },
      VISIBLE_WHEN_DONE,
    );
  }

  pendingNotifications(limit: number): Promise<UsageAlertNotification[]> {
    return this.local.pendingNotifications(limit);
  }

  removeFromOutbox(tx: Transaction, firingId: string): Promise<void> {
    return this.local.removeFromOutbox(tx, firingId);
  }
}
