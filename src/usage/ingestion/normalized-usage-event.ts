import type { Product } from '../usage-event.js';

/** A usage event that passed validation, in the form the store writes. */
export interface NormalizedUsageEvent {
  source: string;
  eventId: string;
  orgId: string;
  /** ISO-8601 instant, UTC. */
  eventTime: string;
  /** The same instant as epoch milliseconds. */
  eventTimeMs: number;
  /** UTC calendar day of eventTime, yyyy-mm-dd. */
  day: string;
  product: Product;
  feature: string;
  apiKeyId: string;
  fileType: string;
  pages: number;
  /**
   * `data.version` (1 when absent): an event sent again with the same identity and a higher
   * version is a correction that replaces the stored one (docs/decisions/0274-*).
   */
  version: number;
  /** Canonical decimal text with 6 fractional digits, e.g. "12.500000". */
  credits: string;
  jobId: string | null;
  isAsync: boolean;
  /** The async.metadata object as JSON text, or null. */
  metadataJson: string | null;
  /** Groupable metadata entries: key -> value as text, truncated to 256 code points. */
  metadata: Record<string, string>;
}

/** Why an event was refused; the reason becomes the dead-letter header. */
export type RejectionReason =
  | 'malformed_json'
  | 'invalid_envelope'
  | 'unsupported_type'
  | 'missing_field'
  | 'wrong_type'
  | 'unknown_product'
  | 'negative_credits'
  | 'invalid_credits'
  | 'invalid_time'
  | 'time_skew'
  | 'late_event'
  | 'unknown_org';

export interface UsageEventRejection {
  reason: RejectionReason;
  detail: string;
}

export type NormalizationResult =
  { ok: true; event: NormalizedUsageEvent } | { ok: false; rejection: UsageEventRejection };
