import { Inject, Injectable } from '../../common/nest-decorators.js';
import { ApiError } from '../../common/api-error.js';
import { TtlCache } from '../../common/ttl-cache.js';
import { hasVisibleCharacter } from '../../common/visible-text.js';
import { APP_CONFIG } from '../../config/app-config.token.js';
import type { AppConfig } from '../../config/app-config.js';
import { METADATA_KEY_MAX_LENGTH } from '../core/metadata-values.js';
import { identifierLikeWhenEnabling } from './cardinality-rule.js';
import { enableRefusal } from './metadata-key-cap.js';
import { MetadataKeyRepository, MetadataKeyStatus } from './metadata-key.repository.js';

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

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: MetadataKeyRepository,
  ) {}

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
    const identifierLike =
      current?.rejectedReason ?? (current ? this.looksLikeIdentifier(current) : null);
    if (identifierLike) {
      throw ApiError.badRequest(
        'METADATA_KEY_REJECTED',
        `metadata key "${key}" looks like a per-request identifier: it ${identifierLike}; keys must have low cardinality`,
        { metadataKey: key },
      );
    }
    const refusal = enableRefusal(
      key,
      await this.keys.heldKeys(orgId),
      current !== null,
      this.config.usage.cardinality.maxKeysPerOrg,
    );
    if (refusal) {
      throw ApiError.badRequest('METADATA_KEY_LIMIT', refusal, {
        metadataKey: key,
        maxKeys: this.config.usage.cardinality.maxKeysPerOrg,
      });
    }
    await this.keys.enable(orgId, key);
    return (await this.keys.status(orgId, key)) as MetadataKeyStatus;
  }

  /** The identifier-like rule as enabling applies it (cardinality-rule.ts). */
  private looksLikeIdentifier(status: MetadataKeyStatus): string | null {
    return identifierLikeWhenEnabling(this.config.usage.cardinality, status);
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

  list(orgId: string): Promise<MetadataKeyStatus[]> {
    return this.keys.list(orgId);
  }

  /** The org's keys, with the places they hold under the cap (metadata-key-cap.ts). */
  async listWithCap(
    orgId: string,
  ): Promise<{ data: MetadataKeyStatus[]; keysHeld: number; maxKeys: number }> {
    return {
      data: await this.keys.list(orgId),
      keysHeld: await this.keys.heldKeys(orgId),
      maxKeys: this.config.usage.cardinality.maxKeysPerOrg,
    };
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

function cacheKey(orgId: string, key: string): string {
  return `${orgId}\u0000${key}`;
}
