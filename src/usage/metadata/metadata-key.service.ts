import { Inject, Injectable, Optional } from '../../common/nest-decorators.js';
import { ApiError } from '../../common/api-error.js';
import { TtlCache } from '../../common/ttl-cache.js';
import { hasVisibleCharacter } from '../../common/visible-text.js';
import { APP_CONFIG } from '../../config/app-config.token.js';
import type { AppConfig } from '../../config/app-config.js';
import { METADATA_KEY_MAX_LENGTH } from '../core/metadata-values.js';
import { enableRefusal, type EnableRefusal } from './enable-rule.js';
import { capRefusal } from './metadata-key-cap.js';
import {
  DuckDbMetadataKeyPlaces,
  METADATA_KEY_PLACES,
  recordedDeletion,
  TRACKING_DELETED_REASON,
  type MetadataKeyPlaces,
  type RecordedPlaces,
} from './metadata-key-places.js';
import { MetadataKeyRepository, MetadataKeyStatus } from './metadata-key.repository.js';

/** A key of the listing, with whether enabling it would be accepted (enable-rule.ts). */
export interface ListedMetadataKey extends MetadataKeyStatus {
  canEnable: boolean;
  /** Why enabling it is refused (the error enabling answers), null when it would be accepted. */
  enableRefusal: EnableRefusal | null;
}

const USABLE_CACHE_TTL_MS = 30_000;
const USABLE_CACHE_MAX_ENTRIES = 10_000;

/**
 * Which async-metadata keys an organization may group and filter its usage by. A key must
 * be enabled first; a key whose values look like per-request identifiers is refused, both
 * when enabling and later when ingestion marks it rejected (its events are still stored).
 */
@Injectable()
export class MetadataKeyService {
  /**
   * (org, key) pairs last seen usable, so exports grouped by metadata skip a DuckDB read.
   * Disabling and ingestion's rejection evict at once (both happen in this process).
   */
  private readonly usableKeys = new TtlCache<true>(USABLE_CACHE_TTL_MS, USABLE_CACHE_MAX_ENTRIES);

  private readonly places: MetadataKeyPlaces;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: MetadataKeyRepository,
    @Optional() @Inject(METADATA_KEY_PLACES) places?: MetadataKeyPlaces,
  ) {
    this.places = places ?? new DuckDbMetadataKeyPlaces();
  }

  private get cap(): number {
    return this.config.usage.cardinality.maxKeysPerOrg;
  }

  async enable(orgId: string, key: string): Promise<MetadataKeyStatus> {
    if (key.length === 0 || key.length > METADATA_KEY_MAX_LENGTH) {
      throw ApiError.badRequest(
        'INVALID_METADATA_KEY',
        `metadata key must be 1 to ${METADATA_KEY_MAX_LENGTH} characters`,
      );
    }
    // Requests refuse such keys in async.metadata: no event can carry one to group by.
    if (!hasVisibleCharacter(key)) {
      throw ApiError.badRequest(
        'INVALID_METADATA_KEY',
        `metadata key ${JSON.stringify(key)} holds no visible character`,
        { metadataKey: key },
      );
    }
    const current = await this.keys.status(orgId, key);
    const recorded = await this.places.recorded(orgId);
    const refusal = enableRefusal(
      key,
      current,
      {
        holds: await this.keys.heldKeys(orgId, recorded),
        cap: this.cap,
        held: current !== null || recorded.held.includes(key),
        trackingDeleted:
          current?.trackingDeletedAt != null || recordedDeletion(recorded, key) !== null,
      },
      this.config.usage.cardinality,
    );
    if (refusal) throw this.refused(key, refusal);
    // Counted again in the insert: a write may have taken the last place meanwhile.
    if (!(await this.keys.enableWithinCap(orgId, key, this.cap, recorded))) {
      const message = capRefusal(key, this.cap, false, this.cap) as string;
      throw this.refused(key, { code: 'METADATA_KEY_LIMIT', message });
    }
    await this.places.claim(orgId, key);
    return (await this.keys.status(orgId, key)) as MetadataKeyStatus;
  }

  private refused(key: string, refusal: EnableRefusal): ApiError {
    const details =
      refusal.code === 'METADATA_KEY_LIMIT'
        ? { metadataKey: key, maxKeys: this.cap }
        : { metadataKey: key };
    return ApiError.badRequest(refusal.code, refusal.message, details);
  }

  /**
   * Deletes the key's usage tracking: its rollups are dropped, it is disabled, its place is
   * freed, and usage is not broken out by it again (its events keep it). 404 when the org's
   * usage was never broken out by it.
   */
  async deleteTracking(orgId: string, key: string): Promise<void> {
    this.forgetUsable(orgId, key);
    const tracked = (await this.keys.status(orgId, key))?.eventCount ?? 0;
    if (tracked === 0 && !(await this.places.recorded(orgId)).held.includes(key)) {
      throw ApiError.notFound(
        'METADATA_KEY_NOT_TRACKED',
        `usage of this organization is not broken out by metadata key "${key}"`,
      );
    }
    await this.places.deleteTracking(orgId, key);
    await this.keys.deleteTracking(orgId, key, TRACKING_DELETED_REASON);
  }

  async disable(orgId: string, key: string): Promise<void> {
    this.forgetUsable(orgId, key);
    if (!(await this.keys.disable(orgId, key))) {
      throw ApiError.notFound(
        'METADATA_KEY_NOT_ENABLED',
        `metadata key "${key}" is not enabled for this organization`,
      );
    }
  }

  async list(orgId: string): Promise<MetadataKeyStatus[]> {
    return this.listed(orgId, await this.places.recorded(orgId));
  }

  /**
   * The org's keys as this process's DuckDB file has them, each whose tracking the usage
   * store records as deleted shown as deleted: with several ClickHouse ingest processes it
   * may have been deleted through another one, whose file is not this one. The one place
   * the listings read the store's deletions.
   */
  private async listed(orgId: string, recorded: RecordedPlaces): Promise<MetadataKeyStatus[]> {
    const keys = await this.keys.list(orgId);
    return keys.map((status) =>
      withRecordedDeletion(status, recordedDeletion(recorded, status.key)),
    );
  }

  /**
   * The org's keys, each with whether enabling it would be accepted (the rule `enable`
   * applies), and the places they hold under the cap (metadata-key-cap.ts).
   */
  async listWithCap(
    orgId: string,
  ): Promise<{ data: ListedMetadataKey[]; keysHeld: number; maxKeys: number }> {
    const recorded = await this.places.recorded(orgId);
    const keys = await this.listed(orgId, recorded);
    const keysHeld = await this.keys.heldKeys(orgId, recorded);
    const data = keys.map((status) => {
      const refusal = enableRefusal(
        status.key,
        status,
        {
          holds: keysHeld,
          cap: this.cap,
          held: true,
          trackingDeleted: status.trackingDeletedAt !== null,
        },
        this.config.usage.cardinality,
      );
      return { ...status, canEnable: refusal === null, enableRefusal: refusal };
    });
    return { data, keysHeld, maxKeys: this.cap };
  }

  /** Throws the export's 400 unless `key` is enabled for the org and not rejected. */
  async assertUsable(orgId: string, key: string): Promise<void> {
    if (this.knownUsable(orgId, key)) return;
    const status = await this.keys.status(orgId, key);
    if (!status?.enabled) {
      throw ApiError.badRequest(
        'METADATA_KEY_NOT_ENABLED',
        `metadataKey "${key}" is not enabled for organization ${orgId}; enable it first`,
        { metadataKey: key },
      );
    }
    if (status.rejectedAt) {
      throw ApiError.badRequest(
        'METADATA_KEY_REJECTED',
        `metadataKey "${key}" was rejected: it ${status.rejectedReason}; keys must have low cardinality`,
        { metadataKey: key },
      );
    }
    this.usableKeys.set(cacheKey(orgId, key), true);
  }

  /**
   * Whether this process holds `key` as usable for the org in memory (the entry
   * `assertUsable` passes on); false when only the store can tell.
   */
  knownUsable(orgId: string, key: string): boolean {
    const reload = async () => {
      const status = await this.keys.status(orgId, key);
      return status?.enabled && !status.rejectedAt ? (true as const) : undefined;
    };
    return this.usableKeys.get(cacheKey(orgId, key), reload) === true;
  }

  /** Called when ingestion marks a key rejected, so exports refuse it at once. */
  forgetUsable(orgId: string, key: string): void {
    this.usableKeys.delete(cacheKey(orgId, key));
  }
}

/**
 * `status` as deleting its tracking leaves a key (MetadataKeyRepository.deleteTracking):
 * disabled, refused, its tracking deleted at `deletedAt`. Unchanged when the store records
 * no deletion (null) or the DuckDB file has its own.
 */
function withRecordedDeletion(
  status: MetadataKeyStatus,
  deletedAt: string | null,
): MetadataKeyStatus {
  if (deletedAt === null || status.trackingDeletedAt !== null) return status;
  return {
    ...status,
    enabled: false,
    enabledAt: null,
    rejectedAt: status.rejectedAt ?? deletedAt,
    rejectedReason: status.rejectedReason ?? TRACKING_DELETED_REASON,
    trackingDeletedAt: deletedAt,
  };
}

function cacheKey(orgId: string, key: string): string {
  return `${orgId}\u0000${key}`;
}
