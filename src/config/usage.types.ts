/** Usage-plane rules whose thresholds are settings (docs/decisions.md gives the defaults). */

export interface CardinalityRule {
  /** A key with this many distinct values is identifier-like. */
  maxDistinctValues: number;
  /** ...and so is one whose distinct/event ratio exceeds `maxDistinctRatio` once it has this many events. */
  minEventsForRatio: number;
  maxDistinctRatio: number;
}

export interface NormalizerPolicy {
  /** Events stamped further than this in the future are refused (clock skew). */
  maxFutureSkewMs: number;
  /** Events older than this are refused: they would rewrite closed finance periods. */
  maxAgeMs: number;
}
