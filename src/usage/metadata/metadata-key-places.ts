/*
 * Places under an org's cap on metadata keys that the usage store records itself, beside the
 * DuckDB statistics and enabled keys (metadata-key.repository.ts). The DuckDB store has none:
 * its statistics are its places. The ClickHouse store records its places in
 * `metadata_keys_tracked`, shared by every ingest process, so enabling counts them too, and
 * deleting a key's tracking frees its place there and drops its rows
 * (docs/decisions/0514-*).
 */

import { Injectable } from '../../common/nest-decorators.js';

/**
 * The refusal reason a key keeps once a manager deleted its usage tracking; the ClickHouse
 * store tells such a key from one rejected as identifier-like (which holds its place) by it.
 */
export const TRACKING_DELETED_REASON = 'had its usage tracking deleted';

export interface MetadataKeyPlaces {
  /**
   * The org's keys the store records beyond DuckDB's statistics: those holding places, and
   * those whose tracking was deleted (through any process).
   */
  recorded(orgId: string): Promise<RecordedPlaces>;
  /**
   * Records the place of a key just enabled in the store, so the process writing the org's
   * events (which reads no other process's enabled keys) counts it and breaks usage out by it.
   */
  claim(orgId: string, key: string): Promise<void>;
  /**
   * Frees the key's place in the store and keeps its later entries (and a correction's
   * retraction of earlier ones) out of the metadata rollups, whose rows of it are dropped.
   */
  deleteTracking(orgId: string, key: string): Promise<void>;
}

export interface RecordedPlaces {
  held: string[];
  deleted: DeletedTracking[];
}

/** A key whose usage tracking a manager deleted, and when (RFC 3339). */
export interface DeletedTracking {
  key: string;
  deletedAt: string;
}

/** When the store records `key`'s tracking as deleted, null when it does not. */
export function recordedDeletion(recorded: RecordedPlaces, key: string): string | null {
  return recorded.deleted.find((d) => d.key === key)?.deletedAt ?? null;
}

export const METADATA_KEY_PLACES = Symbol('METADATA_KEY_PLACES');

/** The DuckDB store's: its statistics rows are the places (MetadataKeyRepository). */
@Injectable()
export class DuckDbMetadataKeyPlaces implements MetadataKeyPlaces {
  recorded(): Promise<RecordedPlaces> {
    return Promise.resolve({ held: [], deleted: [] });
  }

  claim(): Promise<void> {
    return Promise.resolve();
  }

  deleteTracking(): Promise<void> {
    return Promise.resolve();
  }
}
