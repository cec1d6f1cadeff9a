import { randomUUID } from 'node:crypto';
import { HttpStatus, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { Mutex } from '../../common/mutex.js';
import type { Transaction } from '../../database/duckdb.service.js';
import { formatCredits, parseCredits } from '../core/decimal-credits.js';
import { truncateCodePoints } from '../core/metadata-values.js';
import type { UsageEventColumns } from '../core/usage-event-columns.types.js';
import { MetadataKeyService } from '../metadata/metadata-key.service.js';
import type {
  UsageAlertDestinations,
  UsageAlertNotification,
  UsageAlertOutbox,
  WebhookDestinationRefusal,
} from '../usage-alerts.contract.js';
import { USAGE_PERIOD_TOTALS, type UsagePeriodTotalsReader } from '../core/usage-store.ports.js';
import type { CreateUsageAlertDto } from './usage-alert.dto.js';
import { USAGE_ALERT_STORE, type UsageAlertStore } from './usage-alert.repository.js';
import {
  periodContaining,
  reachesThreshold,
  type AlertFiring,
  type AlertRule,
} from './usage-alert.types.js';
import { labelOrNull } from '../../common/visible-text.js';

/** Rules one organization may keep: evaluation reads one total per rule and touched period. */
export const MAX_ALERTS_PER_ORG = 100;
const LISTED_FIRINGS = 200;
const DAY_MS = 86_400_000;
/** A shared store's rules and crossings are read again after this long (other processes' changes). */
const SHARED_STATE_FRESH_MS = 1_000;

/**
 * Usage alerts: rules per organization, evaluated after every committed write of usage
 * events (the ingestion path calls `afterWrite`), and their crossings, each recorded once
 * with its webhook in a durable outbox that the processing plane delivers from.
 *
 * A crossing is recorded when a period's total is at or above the threshold and none is
 * recorded yet for that rule and period (the table's primary key decides, once); a new
 * period re-arms the rule. Evaluations look at every event a write was given, duplicates
 * included, so a replay after a crash between a write and its evaluation still records
 * the crossing; at start-up the current periods are evaluated once too.
 */
@Injectable()
export class UsageAlertService
  implements UsageAlertOutbox, UsageAlertDestinations, OnApplicationBootstrap
{
  private readonly logger = new Logger(UsageAlertService.name);
  private readonly evaluations = new Mutex();
  private rulesByOrg: Promise<Map<string, AlertRule[]>> | null = null;
  /** `alertId|periodStart` of every recorded crossing: skipped without reading totals. */
  private fired: Promise<Set<string>> | null = null;
  private readonly crossingListeners: (() => void)[] = [];
  private sharedStateReadAt = 0;
  private sharedRulesVersion: string | null = null;
  private destinationRefusal: WebhookDestinationRefusal | null = null;

  constructor(
    @Inject(USAGE_ALERT_STORE) private readonly repository: UsageAlertStore,
    @Inject(USAGE_PERIOD_TOTALS) private readonly totals: UsagePeriodTotalsReader,
    private readonly metadataKeys: MetadataKeyService,
  ) {}

  // ---- rules ------------------------------------------------------------------------------

  async create(orgId: string, input: CreateUsageAlertDto): Promise<AlertRule> {
    const threshold = parseThreshold(input.measure, input.threshold);
    if ((input.metadataKey === undefined) !== (input.metadataValue === undefined)) {
      throw ApiError.badRequest(
        'INVALID_ALERT_SCOPE',
        'metadataKey and metadataValue go together: give both or neither',
      );
    }
    if (input.metadataKey !== undefined) {
      await this.metadataKeys.assertUsable(orgId, input.metadataKey);
    }
    const webhookUrl = parseWebhookUrl(input.webhookUrl);
    const refusal = await this.destinationRefusal?.(webhookUrl);
    if (refusal) {
      throw ApiError.badRequest(
        'INVALID_WEBHOOK_URL',
        `webhookUrl cannot be delivered to: ${refusal}`,
      );
    }
    const rules = await this.rules();
    const existing = rules.get(orgId) ?? [];
    if (existing.length >= MAX_ALERTS_PER_ORG) {
      throw new ApiError(
        HttpStatus.CONFLICT,
        'TOO_MANY_ALERTS',
        `an organization keeps at most ${MAX_ALERTS_PER_ORG} usage alerts; delete one first`,
      );
    }
    const rule: AlertRule = {
      alertId: `al_${randomUUID().replaceAll('-', '')}`,
      orgId,
      name: labelOrNull(input.name) ?? `${input.measure} per ${input.period} >= ${threshold}`,
      measure: input.measure,
      period: input.period,
      threshold,
      product: input.product ?? null,
      metadataKey: input.metadataKey ?? null,
      metadataValue:
        input.metadataValue === undefined ? null : truncateCodePoints(input.metadataValue),
      webhookUrl,
      createdAt: new Date().toISOString(),
    };
    await this.repository.insertRule(rule);
    rules.set(orgId, [...existing, rule]);
    // A rule set below what the org already used this period fires now, not at the next event.
    await this.evaluate(new Map([[orgId, new Set([utcDay(new Date())])]]));
    return rule;
  }

  checkWith(refusal: WebhookDestinationRefusal): void {
    this.destinationRefusal = refusal;
  }

  async list(orgId: string): Promise<AlertRule[]> {
    return (await this.rules()).get(orgId) ?? [];
  }

  async delete(orgId: string, alertId: string): Promise<void> {
    if (!(await this.repository.deleteRule(orgId, alertId))) {
      throw ApiError.notFound(
        'ALERT_NOT_FOUND',
        `No usage alert ${alertId} in organization ${orgId}`,
      );
    }
    const rules = await this.rules();
    rules.set(
      orgId,
      (rules.get(orgId) ?? []).filter((r) => r.alertId !== alertId),
    );
  }

  firings(orgId: string): Promise<AlertFiring[]> {
    return this.repository.firings(orgId, LISTED_FIRINGS);
  }

  // ---- evaluation -------------------------------------------------------------------------

  /** Evaluates the rules of the orgs and days a committed write touched. */
  async afterWrite(groups: readonly UsageEventColumns[]): Promise<void> {
    const rules = await this.rules();
    if (rules.size === 0) return;
    const touched = new Map<string, Set<string>>();
    for (const group of groups) {
      const watched = new Map<number, Set<string>>();
      for (const [orgId, orgRules] of rules) {
        if (orgRules.length === 0) continue;
        const code = group.dictionary.indexOf(orgId) + 1;
        if (code === 0) continue;
        let days = touched.get(orgId);
        if (!days) touched.set(orgId, (days = new Set()));
        watched.set(code, days);
      }
      if (watched.size === 0) continue;
      for (let row = 0; row < group.length; row++) {
        watched.get(group.org[row])?.add(group.dictionary[group.day[row] - 1]);
      }
    }
    if (touched.size > 0) await this.evaluate(touched);
  }

  /** At start-up: the periods of today and yesterday, in case a crash came between a write and its evaluation. */
  async onApplicationBootstrap(): Promise<void> {
    const rules = await this.rules();
    const now = Date.now();
    const days = new Set([utcDay(new Date(now)), utcDay(new Date(now - DAY_MS))]);
    const touched = new Map<string, Set<string>>();
    for (const [orgId, orgRules] of rules) if (orgRules.length > 0) touched.set(orgId, days);
    if (touched.size > 0) await this.evaluate(touched);
  }

  private evaluate(touched: Map<string, Set<string>>): Promise<void> {
    return this.evaluations.runExclusive(async () => {
      const rules = await this.rules();
      const fired = await this.firedPeriods(touched);
      const crossings: { key: string; firing: AlertFiring; webhookUrl: string }[] = [];
      for (const [orgId, days] of touched) {
        for (const rule of rules.get(orgId) ?? []) {
          const periods = new Map<string, string>();
          for (const day of days) {
            const [first, last] = periodContaining(day, rule.period);
            periods.set(first, last);
          }
          for (const [first, last] of periods) {
            const key = `${rule.alertId}|${first}`;
            if (fired.has(key)) continue;
            const totals = await this.totals.periodTotals(orgId, first, last, rule);
            if (!reachesThreshold(rule, totals)) continue;
            const total =
              rule.measure === 'credits' ? formatCredits(totals.credits) : String(totals.requests);
            crossings.push({
              key,
              firing: firingOf(rule, first, last, total),
              webhookUrl: rule.webhookUrl,
            });
          }
        }
      }
      const record = async ({ key, firing, webhookUrl }: (typeof crossings)[number]) => {
        const recorded = await this.repository.recordFiring(firing, webhookUrl);
        fired.add(key);
        if (!recorded) return;
        const { orgId, alertId, periodStart, total } = firing;
        this.logger.log(
          { orgId, alertId, periodStart, total },
          'usage alert crossed its threshold',
        );
        for (const listener of this.crossingListeners) listener();
      };
      // A shared store's claim waits for other claimants: the crossings of one evaluation
      // wait together, not one after the other.
      if (this.repository.shared) await Promise.all(crossings.map(record));
      else for (const crossing of crossings) await record(crossing);
    });
  }

  private async rules(): Promise<Map<string, AlertRule[]>> {
    await this.forgetChangedSharedRules();
    this.rulesByOrg ??= this.repository.allRules().then((all) => {
      const byOrg = new Map<string, AlertRule[]>();
      for (const rule of all) byOrg.set(rule.orgId, [...(byOrg.get(rule.orgId) ?? []), rule]);
      return byOrg;
    });
    this.rulesByOrg.catch(() => (this.rulesByOrg = null));
    return this.rulesByOrg;
  }

  /**
   * A shared store's rules: rules made and deleted through other processes are seen within
   * a second, by a check of their version (two counts); all of them are read again only
   * when it changed (docs/decisions/0376-*).
   */
  private async forgetChangedSharedRules(): Promise<void> {
    if (!this.repository.shared || Date.now() - this.sharedStateReadAt <= SHARED_STATE_FRESH_MS) {
      return;
    }
    this.sharedStateReadAt = Date.now();
    const version = await this.repository.rulesVersion();
    if (version === this.sharedRulesVersion) return;
    // Read before the rules: a change in between is read now and seen again next time.
    this.sharedRulesVersion = version;
    this.rulesByOrg = null;
  }

  /**
   * The recorded crossings an evaluation of `touched` may meet, as `alertId|periodStart`.
   * One store: all of them, read once and kept. A shared store (other processes record
   * crossings too): those of the touched orgs from the month of their earliest day, read
   * for each evaluation.
   */
  private async firedPeriods(touched: Map<string, Set<string>>): Promise<Set<string>> {
    const keyOf = (f: { alertId: string; periodStart: string }) => `${f.alertId}|${f.periodStart}`;
    if (this.repository.shared) {
      const days = [...touched.values()].flatMap((d) => [...d]).sort();
      if (days.length === 0) return new Set();
      const [since] = periodContaining(days[0], 'month');
      const recorded = await this.repository.firedPeriods({ orgIds: [...touched.keys()], since });
      return new Set(recorded.map(keyOf));
    }
    this.fired ??= this.repository.firedPeriods().then((all) => new Set(all.map(keyOf)));
    this.fired.catch(() => (this.fired = null));
    return this.fired;
  }

  // ---- the outbox (UsageAlertOutbox, read by the processing plane's webhook relay) --------

  pending(limit: number): Promise<UsageAlertNotification[]> {
    return this.repository.pendingNotifications(limit);
  }

  handedOver(tx: Transaction, firingId: string): Promise<void> {
    return this.repository.removeFromOutbox(tx, firingId);
  }

  onCrossing(listener: () => void): void {
    this.crossingListeners.push(listener);
  }
}

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The crossing of `rule` in a period, with the webhook body it is delivered as. */
function firingOf(rule: AlertRule, first: string, last: string, total: string): AlertFiring {
  const firingId = `alf_${randomUUID().replaceAll('-', '')}`;
  const firedAt = new Date().toISOString();
  const payload = JSON.stringify({
    type: 'usage.alert.crossed',
    firing_id: firingId,
    alert_id: rule.alertId,
    org_id: rule.orgId,
    name: rule.name,
    measure: rule.measure,
    period: rule.period,
    period_start: first,
    period_end: last,
    threshold: rule.threshold,
    total,
    scope: {
      product: rule.product,
      metadata_key: rule.metadataKey,
      metadata_value: rule.metadataValue,
    },
    fired_at: firedAt,
  });
  return {
    firingId,
    alertId: rule.alertId,
    orgId: rule.orgId,
    periodStart: first,
    periodEnd: last,
    total,
    firedAt,
    payload,
  };
}

/** The threshold as exact canonical text: > 0; a whole number for requests. */
function parseThreshold(measure: 'credits' | 'requests', raw: string | number): string {
  const parsed = parseCredits(raw);
  const invalid = (why: string) =>
    ApiError.badRequest('INVALID_THRESHOLD', `threshold ${why}, got ${JSON.stringify(raw)}`);
  if (!parsed.ok)
    throw invalid('must be a decimal with at most 12 integer and 6 fractional digits');
  const [integer, fraction] = parsed.value.split('.');
  if (/^0+$/.test(integer) && /^0+$/.test(fraction)) throw invalid('must be greater than 0');
  if (measure === 'requests') {
    if (!/^0+$/.test(fraction)) throw invalid('must be a whole number of requests');
    return integer;
  }
  return formatCredits(parsed.value);
}

function parseWebhookUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw ApiError.badRequest('INVALID_WEBHOOK_URL', 'webhookUrl must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw ApiError.badRequest('INVALID_WEBHOOK_URL', 'webhookUrl must be an http or https URL');
  }
  return url.toString();
}
