import { Injectable } from '@nestjs/common';
import { DuckDbService, type Transaction } from '../../database/duckdb.service.js';
import { formatCredits } from '../core/decimal-credits.js';
import type { UsageAlertNotification } from '../usage-alerts.contract.js';
import type { AlertFiring, AlertMeasure, AlertPeriod, AlertRule } from './usage-alert.types.js';

/** A rule's columns as both stores read them, but its creation time. */
export interface RuleFieldsRow {
  alert_id: string;
  org_id: string;
  name: string;
  measure: string;
  period: string;
  threshold: string;
  product: string | null;
  metadata_key: string | null;
  metadata_value: string | null;
  webhook_url: string;
}

interface RuleRow extends RuleFieldsRow {
  created_at: bigint | number;
}

/** A crossing's columns as both stores read them, but its time. */
export interface FiringFieldsRow {
  firing_id: string;
  alert_id: string;
  org_id: string;
  period_start: string;
  period_end: string;
  total: string;
  payload: string;
}

interface FiringRow extends FiringFieldsRow {
  fired_at: bigint | number;
}

const RULE_COLUMNS = `alert_id, org_id, name, measure, period, CAST(threshold AS VARCHAR) AS threshold,
  product, metadata_key, metadata_value, webhook_url, epoch_ms(created_at) AS created_at`;
const FIRING_COLUMNS = `firing_id, alert_id, org_id, CAST(period_start AS VARCHAR) AS period_start,
  CAST(period_end AS VARCHAR) AS period_end, CAST(total AS VARCHAR) AS total,
  epoch_ms(fired_at) AS fired_at, payload`;

/** A rule read from either store; `createdMs` is its creation time in epoch milliseconds. */
export function ruleFromRow(row: RuleFieldsRow, createdMs: number): AlertRule {
  return {
    alertId: row.alert_id,
    orgId: row.org_id,
    name: row.name,
    measure: row.measure as AlertMeasure,
    period: row.period as AlertPeriod,
    threshold: formatCredits(row.threshold),
    product: row.product,
    metadataKey: row.metadata_key,
    metadataValue: row.metadata_value,
    webhookUrl: row.webhook_url,
    createdAt: new Date(createdMs).toISOString(),
  };
}

function toRule(row: RuleRow): AlertRule {
  return ruleFromRow(row, Number(row.created_at));
}

/** A crossing read from either store; `firedMs` is its time in epoch milliseconds. */
export function firingFromRow(row: FiringFieldsRow, firedMs: number): AlertFiring {
  return {
    firingId: row.firing_id,
    alertId: row.alert_id,
    orgId: row.org_id,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    total: formatCredits(row.total),
    firedAt: new Date(firedMs).toISOString(),
    payload: row.payload,
  };
}

function toFiring(row: FiringRow): AlertFiring {
  return firingFromRow(row, Number(row.fired_at));
}

/**
 * Where usage alerts live: rules, crossings and the outbox of crossings not yet handed to
 * webhook delivery. DuckDB (this file) with one process; with the ClickHouse store the rules
 * and crossings are shared by every process (src/usage/clickhouse/clickhouse-alert.repository.ts)
 * and only the outbox stays in the process that delivers.
 */
export interface UsageAlertStore {
  /** Other processes write it too: what a process remembers of it goes stale. */
  readonly shared: boolean;
  insertRule(rule: AlertRule): Promise<void>;
  allRules(): Promise<AlertRule[]>;
  /**
   * Changes whenever a rule is created or deleted, by any process: a shared store's cheap
   * check before reading every rule again.
   */
  rulesVersion(): Promise<string>;
  deleteRule(orgId: string, alertId: string): Promise<boolean>;
  /**
   * The (alert, period start) pairs already recorded, so evaluations skip them: with a
   * scope, at least those of its orgs whose period starts on or after `since`.
   */
  firedPeriods(scope?: FiredScope): Promise<{ alertId: string; periodStart: string }[]>;
  firings(orgId: string, limit: number): Promise<AlertFiring[]>;
  /**
   * Records a crossing and, for the one process that records it, its outbox row; false when
   * the crossing of that alert and period was already recorded (here or by another process).
   */
  recordFiring(firing: AlertFiring, webhookUrl: string): Promise<boolean>;
  pendingNotifications(limit: number): Promise<UsageAlertNotification[]>;
  removeFromOutbox(tx: Transaction, firingId: string): Promise<void>;
}

/** Which recorded crossings an evaluation needs: its orgs', from a day (yyyy-mm-dd) on. */
export interface FiredScope {
  orgIds: readonly string[];
  since: string;
}

export const USAGE_ALERT_STORE = Symbol('USAGE_ALERT_STORE');

/** Usage alerts in DuckDB (the accounts store): rules, crossings, and the outbox in both modes. */
@Injectable()
export class UsageAlertRepository implements UsageAlertStore {
  readonly shared = false;

  constructor(private readonly db: DuckDbService) {}

  async insertRule(rule: AlertRule): Promise<void> {
    await this.db.run(
      `INSERT INTO usage_alert_rules (alert_id, org_id, name, measure, period, threshold, product,
         metadata_key, metadata_value, webhook_url, created_at)
       VALUES ($1, $2, $3, $4, $5, CAST($6 AS DECIMAL(38, 6)), $7, $8, $9, $10, CAST($11 AS TIMESTAMPTZ))`,
      [
        rule.alertId,
        rule.orgId,
        rule.name,
        rule.measure,
        rule.period,
        rule.threshold,
        rule.product,
        rule.metadataKey,
        rule.metadataValue,
        rule.webhookUrl,
        rule.createdAt,
      ],
    );
  }

  async allRules(): Promise<AlertRule[]> {
    const rows = await this.db.all<RuleRow>(
      `SELECT ${RULE_COLUMNS} FROM usage_alert_rules ORDER BY created_at, alert_id`,
    );
    return rows.map(toRule);
  }

  /** Never asked: one process writes this store, and its cache follows its own changes. */
  rulesVersion(): Promise<string> {
    return Promise.resolve('');
  }

  async deleteRule(orgId: string, alertId: string): Promise<boolean> {
    const deleted = await this.db.runReturning(
      'DELETE FROM usage_alert_rules WHERE org_id = $1 AND alert_id = $2 RETURNING alert_id',
      [orgId, alertId],
    );
    return deleted.length > 0;
  }

  async firedPeriods(): Promise<{ alertId: string; periodStart: string }[]> {
    const rows = await this.db.all<{ alert_id: string; period_start: string }>(
      'SELECT alert_id, CAST(period_start AS VARCHAR) AS period_start FROM usage_alert_firings',
    );
    return rows.map((r) => ({ alertId: r.alert_id, periodStart: r.period_start }));
  }

  async firings(orgId: string, limit: number): Promise<AlertFiring[]> {
    const rows = await this.db.all<FiringRow>(
      `SELECT ${FIRING_COLUMNS} FROM usage_alert_firings WHERE org_id = $1
       ORDER BY fired_at DESC, firing_id LIMIT $2`,
      [orgId, limit],
    );
    return rows.map(toFiring);
  }

  /** Every recorded crossing (moving the store to ClickHouse copies them). */
  async allFirings(): Promise<AlertFiring[]> {
    const rows = await this.db.all<FiringRow>(
      `SELECT ${FIRING_COLUMNS} FROM usage_alert_firings ORDER BY fired_at, firing_id`,
    );
    return rows.map(toFiring);
  }

  /**
   * Records a crossing and its outbox row in one transaction; false when the crossing of
   * that alert and period was already recorded (the primary key decides, once).
   */
  async recordFiring(firing: AlertFiring, webhookUrl: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const inserted = await tx.all(
        `INSERT INTO usage_alert_firings (alert_id, period_start, firing_id, org_id, period_end,
           total, fired_at, payload, webhook_url)
         VALUES ($1, CAST($2 AS DATE), $3, $4, CAST($5 AS DATE), CAST($6 AS DECIMAL(38, 6)),
           CAST($7 AS TIMESTAMPTZ), $8, $9)
         ON CONFLICT DO NOTHING
         RETURNING firing_id`,
        [
          firing.alertId,
          firing.periodStart,
          firing.firingId,
          firing.orgId,
          firing.periodEnd,
          firing.total,
          firing.firedAt,
          firing.payload,
          webhookUrl,
        ],
      );
      if (inserted.length === 0) return false;
      await tx.run(
        `INSERT INTO usage_alert_outbox (firing_id, org_id, webhook_url, payload, created_at)
         VALUES ($1, $2, $3, $4, now())`,
        [firing.firingId, firing.orgId, webhookUrl, firing.payload],
      );
      return true;
    });
  }

  async pendingNotifications(limit: number): Promise<UsageAlertNotification[]> {
    const rows = await this.db.all<{
      firing_id: string;
      org_id: string;
      webhook_url: string;
      payload: string;
    }>(
      `SELECT firing_id, org_id, webhook_url, payload FROM usage_alert_outbox
       ORDER BY created_at, firing_id LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({
      firingId: r.firing_id,
      orgId: r.org_id,
      webhookUrl: r.webhook_url,
      payload: r.payload,
    }));
  }

  async removeFromOutbox(tx: Transaction, firingId: string): Promise<void> {
    await tx.run('DELETE FROM usage_alert_outbox WHERE firing_id = $1', [firingId]);
  }
}
