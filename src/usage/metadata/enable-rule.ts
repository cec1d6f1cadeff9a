import type { CardinalityRule } from '../../config/usage.types.js';
import { identifierLikeWhenIngesting } from './cardinality-rule.js';
import { capRefusal } from './metadata-key-cap.js';

/*
 * Whether a metadata key may be enabled for grouping (docs/decisions/0514-*): the one place
 * of that answer. Enabling (metadata-key.service.ts) refuses what it refuses, the key listing
 * answers it per key (`canEnable`, `enableRefusal`), and the dashboard offers Enable only
 * where it is null, so a button is never answered with a refusal and no key that would be
 * accepted is hidden. A key is judged identifier-like by ingestion's rule and thresholds
 * (cardinality-rule.ts, the `METADATA_KEY_*` settings), not a stricter one of its own.
 */

/** What enabling a key is answered with when it is refused: the error's code and message. */
export interface EnableRefusal {
  code: 'METADATA_KEY_REJECTED' | 'METADATA_KEY_LIMIT';
  message: string;
}

/** What the store knows of the key: null for a key it has never seen nor enabled. */
export interface KeyObserved {
  eventCount: number;
  distinctValues: number;
  rejectedReason: string | null;
}

/**
 * The org's places under its cap on metadata keys, whether `key` holds one already, and
 * whether its tracking was deleted.
 */
export interface KeyPlaces {
  holds: number;
  cap: number;
  held: boolean;
  trackingDeleted: boolean;
}

/**
 * Why `key` may not be enabled, or null when it may: its usage tracking was deleted (for
 * good: its earlier events' entries were never to count again), it is rejected (stored, or
 * its counts are identifier-like by ingestion's rule, e.g. after an operator lowered a
 * threshold and before the next write), or it is new to an org holding all its places. A
 * key the org holds already (seen or enabled) takes no new place.
 */
export function enableRefusal(
  key: string,
  observed: KeyObserved | null,
  places: KeyPlaces,
  rule: CardinalityRule,
): EnableRefusal | null {
  if (places.trackingDeleted) {
    return {
      code: 'METADATA_KEY_REJECTED',
      message: `metadata key "${key}" cannot be enabled: its usage tracking was deleted, and usage is not broken out by it again`,
    };
  }
  const identifierLike =
    observed?.rejectedReason ?? (observed ? identifierLikeWhenIngesting(rule, observed) : null);
  if (identifierLike) {
    return {
      code: 'METADATA_KEY_REJECTED',
      message: `metadata key "${key}" looks like a per-request identifier: it ${identifierLike}; keys must have low cardinality`,
    };
  }
  const overCap = capRefusal(key, places.holds, places.held, places.cap);
  return overCap ? { code: 'METADATA_KEY_LIMIT', message: overCap } : null;
}
