/**
 * Whether the metadata rollups count an event's entry of a key, given the key's
 * `metadata_key_stats` row (alias `stats`) and the event's `batchId` (an SQL expression):
 * the key is not rejected as identifier-like (record 0008; its rows left the rollups when
 * it was) and the event was written at or after the write that gave the key its place
 * under the org's cap (`tracked_from_batch`, docs/decisions/0509-*). An event stored while
 * its key was past the cap kept the key in its JSON only, so neither the quarter-hour
 * roll-up nor a correction's retraction may take its entry: the daily rollups never had it.
 * The one rule of the DuckDB store; the ClickHouse store keeps such entries out of the
 * stored event's `meta_keys`, which its roll-up and retraction views read.
 */
export function countedMetadataEntry(batchId: string, stats = 's'): string {
  return `${stats}.rejected_at IS NULL AND ${batchId} >= ${stats}.tracked_from_batch`;
}
