import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { METADATA_KEY_MAX_LENGTH } from '../ingestion/metadata-values.js';
import { MetadataKeyRepository, MetadataKeyStatus } from './metadata-key.repository.js';

/**
 * Which async-metadata keys an organization may group and filter its usage by. A key must
 * be enabled first; a key whose values look like per-request identifiers is refused, both
 * when enabling and later when ingestion marks it rejected (its events are still stored).
 */
@Injectable()
export class MetadataKeyService {
  constructor(private readonly keys: MetadataKeyRepository) {}

  async enable(orgId: string, key: string): Promise<MetadataKeyStatus> {
    if (key.length === 0 || key.length > METADATA_KEY_MAX_LENGTH) {
      throw ApiError.badRequest(
        'INVALID_METADATA_KEY',
        `metadata key must be 1 to ${METADATA_KEY_MAX_LENGTH} characters`,
      );
    }
    const current = await this.keys.status(orgId, key);
    if (current?.rejectedAt) {
      throw ApiError.badRequest(
        'METADATA_KEY_REJECTED',
        `metadata key "${key}" looks like a per-request identifier (${current.rejectedReason}); keys must have low cardinality`,
        { metadataKey: key },
      );
    }
    await this.keys.enable(orgId, key);
    return (await this.keys.status(orgId, key)) as MetadataKeyStatus;
  }

  async disable(orgId: string, key: string): Promise<void> {
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

  /** Throws the export's 400 unless `key` is enabled for the org and not rejected. */
  async assertUsable(orgId: string, key: string): Promise<void> {
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
  }
}
