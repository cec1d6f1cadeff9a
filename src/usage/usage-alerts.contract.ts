import type { Transaction } from '../database/duckdb.service.js';

/**
 * What the usage plane hands the processing plane's webhook delivery: crossings of usage
 * alerts, kept in a durable outbox until a delivery exists for each. The processing plane
 * knows the usage plane by this contract and the event contract (usage-event.ts) only.
 */
export interface UsageAlertNotification {
  firingId: string;
  orgId: string;
  webhookUrl: string;
  /** The JSON body, exactly as it is signed and sent. */
  payload: string;
}

export interface UsageAlertOutbox {
  /** The oldest crossings not yet handed over. */
  pending(limit: number): Promise<UsageAlertNotification[]>;
  /** Removes a crossing from the outbox inside the transaction that creates its delivery. */
  handedOver(tx: Transaction, firingId: string): Promise<void>;
  /** `listener` runs after each committed crossing, so delivery starts without waiting. */
  onCrossing(listener: () => void): void;
}

export const USAGE_ALERT_OUTBOX = Symbol('USAGE_ALERT_OUTBOX');

/** Why webhook delivery would refuse `url` (a private address, a name that does not resolve), or null. */
export type WebhookDestinationRefusal = (url: string) => Promise<string | null>;

/**
 * Where the processing plane lends the usage plane the check its webhook delivery applies,
 * at start: a new alert rule whose URL delivery would refuse is refused with the rule, not
 * accepted and retried until its first crossing fails.
 */
export interface UsageAlertDestinations {
  checkWith(refusal: WebhookDestinationRefusal): void;
}

export const USAGE_ALERT_DESTINATIONS = Symbol('USAGE_ALERT_DESTINATIONS');
