import type { AlertScope, PeriodTotals } from '../core/usage-period-totals.types.js';

export type { AlertScope, PeriodTotals };

export const ALERT_MEASURES = ['credits', 'requests'] as const;
export type AlertMeasure = (typeof ALERT_MEASURES)[number];
export const ALERT_PERIODS = ['day', 'month'] as const;
export type AlertPeriod = (typeof ALERT_PERIODS)[number];

export interface AlertRule extends AlertScope {
  alertId: string;
  orgId: string;
  name: string;
  measure: AlertMeasure;
  period: AlertPeriod;
  /** Exact decimal text (credits: up to 6 fractional digits; requests: an integer). */
  threshold: string;
  webhookUrl: string;
  createdAt: string;
}

export interface AlertFiring {
  firingId: string;
  alertId: string;
  orgId: string;
  periodStart: string;
  periodEnd: string;
  /** The period's total when the crossing was recorded (>= the threshold). */
  total: string;
  firedAt: string;
  /** The webhook body as sent. */
  payload: string;
}

/** The UTC period of `period` that contains `day` (yyyy-mm-dd), as [first day, last day]. */
export function periodContaining(day: string, period: AlertPeriod): [string, string] {
  if (period === 'day') return [day, day];
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return [`${day.slice(0, 7)}-01`, `${day.slice(0, 7)}-${String(last).padStart(2, '0')}`];
}

/** Decimal text as an integer count of millionths, so comparisons are exact. */
export function toMicros(decimal: string): bigint {
  const [integer, fraction = ''] = decimal.trim().split('.');
  const negative = integer.startsWith('-');
  const magnitude = BigInt(integer.replace('-', '') || '0') * 1_000_000n;
  const micros = magnitude + BigInt((fraction + '000000').slice(0, 6));
  return negative ? -micros : micros;
}

/**
 * A crossing: the period's running total of the measure is at or above the threshold.
 * Totals only grow between crossings (a correction that lowers one does not re-arm the
 * period), so "at or above, and not yet recorded for this period" is exactly "went from
 * below to at-or-above" (docs/decisions/0270-usage-alerts-fire-once-per-crossing.md).
 */
export function reachesThreshold(rule: AlertRule, totals: PeriodTotals): boolean {
  const total =
    rule.measure === 'credits' ? toMicros(totals.credits) : BigInt(totals.requests) * 1_000_000n;
  return total >= toMicros(rule.threshold);
}
