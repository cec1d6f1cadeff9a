/*
 * How many async-metadata keys one organization's usage is broken out by
 * (docs/decisions/0509-*). Each key an org's usage is broken out by adds rows to the metadata
 * rollups, the tracked values and the key statistics of the store every org shares, so one
 * tenant sending a new key per request would grow them, and every dashboard read of that
 * store, without bound. The one place of the rule: the DuckDB store (usage-metadata.writer.ts)
 * and the ClickHouse store (clickhouse-usage-store.repository.ts) each count what the org
 * holds and ask `keysToTrack`; enabling asks `capRefusal` through `enableRefusal` (enable-rule.ts).
 * The cap is `METADATA_KEYS_MAX_PER_ORG` (config/settings/usage.settings.ts).
 */

/** A key a write carries that the org's usage is not broken out by yet. */
export interface NewMetadataKey {
  key: string;
  /** Events of the write that carry it. */
  events: number;
  /** Enabled for grouping already: enabling took its place under the cap. */
  enabled: boolean;
}

export interface KeysToTrack {
  /** Keys whose entries the usage rollups take from now on. */
  tracked: string[];
  /** Keys past the cap: kept on the events (and jobs, webhooks), never broken out in usage. */
  untracked: string[];
}

/**
 * Which of a write's new keys an org's usage is broken out by, given the places it already
 * `holds` (keys tracked, rejected or enabled) and the cap. An enabled key holds its place
 * already. The others take the places left, the keys most of the write's events carry first
 * (a dimension a client sends on every request, not the one-off keys beside it), then in
 * code-unit order of the key so that the choice does not depend on how a batch was read.
 * A key keeps its place: a key left out stays out while the org is at the cap, so the
 * rollups of a key never miss part of its events. Only deleting a key's tracking frees a
 * place (docs/decisions/0514-*), and that key is never tracked again.
 */
export function keysToTrack(
  holds: number,
  candidates: readonly NewMetadataKey[],
  cap: number,
): KeysToTrack {
  const tracked: string[] = [];
  const untracked: string[] = [];
  const others: NewMetadataKey[] = [];
  for (const candidate of candidates) {
    if (candidate.enabled) tracked.push(candidate.key);
    else others.push(candidate);
  }
  others.sort((a, b) => b.events - a.events || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  let free = Math.max(0, cap - holds);
  for (const candidate of others) {
    if (free > 0) {
      tracked.push(candidate.key);
      free--;
    } else {
      untracked.push(candidate.key);
    }
  }
  return { tracked, untracked };
}

/**
 * Why `key` may not be enabled for an org that holds `holds` places, or null when it may:
 * a key the org already holds (tracked or enabled) always may.
 */
export function capRefusal(
  key: string,
  holds: number,
  alreadyHeld: boolean,
  cap: number,
): string | null {
  if (alreadyHeld || holds < cap) return null;
  return (
    `metadata key "${key}" cannot be enabled: the organization's usage is already broken out ` +
    `by ${holds} metadata keys, the limit (${cap}); jobs keep the key in their metadata and ` +
    'webhooks, but usage is not grouped by it'
  );
}
