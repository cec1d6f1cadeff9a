import type { CardinalityRule } from '../../config/usage.types.js';

/*
 * Spec "Rules for grouping by async metadata", rule 4: when a metadata key's values look
 * like per-request identifiers. The one place of the rule: ingestion evaluates it in SQL
 * with `ingestionParameters` (usage-metadata.writer.ts marks the key rejected), the
 * ClickHouse store and enabling (enable-rule.ts) with `identifierLikeWhenIngesting`: a key
 * is refused for grouping by the same thresholds wherever it is judged.
 * The thresholds are settings (`METADATA_KEY_*`, config/settings/usage.settings.ts).
 */

/** `$1`, `$2`, `$3` of ingestion's rejection SQL: max distinct values, min events, max ratio. */
export function ingestionParameters(rule: CardinalityRule): [number, number, number] {
  return [rule.maxDistinctValues, rule.minEventsForRatio, rule.maxDistinctRatio];
}

/**
 * Why ingestion marks a key with these observed counts identifier-like, or null when it
 * does not: the rule the DuckDB store evaluates in SQL with `ingestionParameters`, for
 * stores that count in their own engine and decide here (the ClickHouse store).
 */
export function identifierLikeWhenIngesting(
  rule: CardinalityRule,
  observed: { eventCount: number; distinctValues: number },
): string | null {
  const { eventCount, distinctValues } = observed;
  if (distinctValues >= rule.maxDistinctValues) {
    return `has ${distinctValues} distinct values (limit ${rule.maxDistinctValues})`;
  }
  if (eventCount >= rule.minEventsForRatio && distinctValues > rule.maxDistinctRatio * eventCount) {
    return `has ${distinctValues} distinct values in ${eventCount} events`;
  }
  return null;
}
