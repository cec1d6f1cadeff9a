import { Injectable } from '../../common/nest-decorators.js';
import { DuckDbService } from '../../database/duckdb.service.js';
import type { AccountKeySummary, ProcessingKeySummary } from '../accounts.types.js';
import { iso, isoOrNull } from '../timestamps.js';

/** What verification needs of a key: who it is for and the hash to compare with. */
export interface StoredAccountKey {
  keyId: string;
  userId: string;
  defaultOrgId: string | null;
  secretHash: string;
  revoked: boolean;
}

export interface StoredProcessingKey {
  keyId: string;
  orgId: string;
  secretHash: string;
  revoked: boolean;
}

interface ProcessingKeyRow {
  id: string;
  org_id: string;
  name: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

interface AccountKeyRow {
  id: string;
  user_id: string;
  default_org_id: string | null;
  name: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

/** Both kinds of API key. Secrets never reach this class, only their hashes. */
@Injectable()
export class ApiKeyRepository {
  constructor(private readonly db: DuckDbService) {}

  async insertAccountKey(key: {
    keyId: string;
    userId: string;
    defaultOrgId: string | null;
    name: string | null;
    secretHash: string;
  }): Promise<void> {
    await this.db.run(
      `INSERT INTO account_api_keys (id, user_id, default_org_id, name, secret_hash)
       VALUES ($1, $2, $3, $4, $5)`,
      [key.keyId, key.userId, key.defaultOrgId, key.name, key.secretHash],
    );
  }

  async insertProcessingKey(key: {
    keyId: string;
    orgId: string;
    name: string | null;
    secretHash: string;
    createdByUserId: string | null;
  }): Promise<void> {
    await this.db.run(
      `INSERT INTO processing_api_keys (id, org_id, name, secret_hash, created_by_user_id)
       VALUES ($1, $2, $3, $4, $5)`,
      [key.keyId, key.orgId, key.name, key.secretHash, key.createdByUserId],
    );
  }

  async findAccountKeyForAuth(keyId: string): Promise<StoredAccountKey | null> {
    const rows = await this.db.all<{
      id: string;
      user_id: string;
      default_org_id: string | null;
      secret_hash: string;
      revoked: boolean;
    }>(
      `SELECT id, user_id, default_org_id, secret_hash, revoked_at IS NOT NULL AS revoked
         FROM account_api_keys WHERE id = $1`,
      [keyId],
    );
    if (!rows.length) return null;
    const row = rows[0];
    return {
      keyId: row.id,
      userId: row.user_id,
      defaultOrgId: row.default_org_id,
      secretHash: row.secret_hash,
      revoked: row.revoked,
    };
  }

  async findProcessingKeyForAuth(keyId: string): Promise<StoredProcessingKey | null> {
    const rows = await this.db.all<{
      id: string;
      org_id: string;
      secret_hash: string;
      revoked: boolean;
    }>(
      `SELECT id, org_id, secret_hash, revoked_at IS NOT NULL AS revoked
         FROM processing_api_keys WHERE id = $1`,
      [keyId],
    );
    if (!rows.length) return null;
    const row = rows[0];
    return {
      keyId: row.id,
      orgId: row.org_id,
      secretHash: row.secret_hash,
      revoked: row.revoked,
    };
  }

  async findProcessingKey(keyId: string): Promise<ProcessingKeySummary | null> {
    const rows = await this.db.all<ProcessingKeyRow>(
      'SELECT id, org_id, name, created_at, revoked_at FROM processing_api_keys WHERE id = $1',
      [keyId],
    );
    return rows.length ? toProcessingKey(rows[0]) : null;
  }

  async listProcessingKeys(orgId: string): Promise<ProcessingKeySummary[]> {
    const rows = await this.db.all<ProcessingKeyRow>(
      `SELECT id, org_id, name, created_at, revoked_at FROM processing_api_keys
        WHERE org_id = $1 ORDER BY created_at, id`,
      [orgId],
    );
    return rows.map(toProcessingKey);
  }

  async findAccountKey(keyId: string): Promise<AccountKeySummary | null> {
    const rows = await this.db.all<AccountKeyRow>(
      `SELECT id, user_id, default_org_id, name, created_at, revoked_at FROM account_api_keys
        WHERE id = $1`,
      [keyId],
    );
    return rows.length ? toAccountKey(rows[0]) : null;
  }

  async listAccountKeys(userId: string): Promise<AccountKeySummary[]> {
    const rows = await this.db.all<AccountKeyRow>(
      `SELECT id, user_id, default_org_id, name, created_at, revoked_at FROM account_api_keys
        WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    );
    return rows.map(toAccountKey);
  }

  /** Marks a key revoked once; a second revocation keeps the first time. */
  async revokeProcessingKey(keyId: string): Promise<void> {
    await this.db.run(
      'UPDATE processing_api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL',
      [keyId],
    );
  }

  async revokeAccountKey(keyId: string): Promise<void> {
    await this.db.run(
      'UPDATE account_api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL',
      [keyId],
    );
  }
}

function toAccountKey(row: AccountKeyRow): AccountKeySummary {
  return {
    keyId: row.id,
    userId: row.user_id,
    defaultOrgId: row.default_org_id,
    name: row.name,
    createdAt: iso(row.created_at),
    revokedAt: isoOrNull(row.revoked_at),
  };
}

function toProcessingKey(row: ProcessingKeyRow): ProcessingKeySummary {
  return {
    keyId: row.id,
    orgId: row.org_id,
    name: row.name,
    createdAt: iso(row.created_at),
    revokedAt: isoOrNull(row.revoked_at),
  };
}
