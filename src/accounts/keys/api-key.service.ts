import { Injectable } from '../../common/nest-decorators.js';
import { ApiError } from '../../common/api-error.js';
import { AccountsService } from '../accounts.service.js';
import type { AccountKeySummary, CreatedKey, ProcessingKeySummary } from '../accounts.types.js';
import type { AccountPrincipal, ProcessingPrincipal } from '../principal.js';
import { ApiKeyRepository, StoredAccountKey, StoredProcessingKey } from './api-key.repository.js';
import { issueToken, parseToken } from './api-key-token.js';
import { KeyRecordCache } from './key-record-cache.js';
import { labelOrNull } from '../../common/visible-text.js';

const MAX_KEY_NAME_LENGTH = 100;

const KEY_CACHE_TTL_MS = 60_000;
const KEY_CACHE_MAX_ENTRIES = 10_000;

/** Issues, lists, revokes and verifies account and processing API keys. */
@Injectable()
export class ApiKeyService {
  private readonly accountKeyCache = new KeyRecordCache<StoredAccountKey>(
    KEY_CACHE_TTL_MS,
    KEY_CACHE_MAX_ENTRIES,
  );
  private readonly processingKeyCache = new KeyRecordCache<StoredProcessingKey>(
    KEY_CACHE_TTL_MS,
    KEY_CACHE_MAX_ENTRIES,
  );

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly accounts: AccountsService,
  ) {}

  /** A personal key of `userId`; `defaultOrgId`, when given, must be an org the user belongs to. */
  async createAccountKey(
    userId: string,
    options: { defaultOrgId?: string | null; name?: string | null } = {},
  ): Promise<CreatedKey> {
    await this.accounts.requireUser(userId);
    const defaultOrgId = options.defaultOrgId ?? null;
    if (defaultOrgId !== null) {
      await this.accounts.requireOrg(defaultOrgId);
      if (!(await this.accounts.isMember(userId, defaultOrgId))) {
        throw ApiError.badRequest(
          'NOT_A_MEMBER',
          `User ${userId} is not a member of organization ${defaultOrgId}; add the membership first`,
        );
      }
    }
    const issued = issueToken('account');
    await this.keys.insertAccountKey({
      keyId: issued.keyId,
      userId,
      defaultOrgId,
      name: checkName(options.name),
      secretHash: issued.secretHash,
    });
    return { keyId: issued.keyId, secret: issued.secret };
  }

  async createProcessingKey(
    orgId: string,
    options: { name?: string | null; createdByUserId?: string | null } = {},
  ): Promise<CreatedKey> {
    await this.accounts.requireOrg(orgId);
    const issued = issueToken('processing');
    await this.keys.insertProcessingKey({
      keyId: issued.keyId,
      orgId,
      name: checkName(options.name),
      secretHash: issued.secretHash,
      createdByUserId: options.createdByUserId ?? null,
    });
    return { keyId: issued.keyId, secret: issued.secret };
  }

  listAccountKeys(userId: string): Promise<AccountKeySummary[]> {
    return this.keys.listAccountKeys(userId);
  }

  listProcessingKeys(orgId: string): Promise<ProcessingKeySummary[]> {
    return this.keys.listProcessingKeys(orgId);
  }

  /** Revokes a processing key of `orgId`; 404 when the org has no such key. Idempotent. */
  async revokeProcessingKey(orgId: string, keyId: string): Promise<ProcessingKeySummary> {
    const key = await this.keys.findProcessingKey(keyId);
    if (!key || key.orgId !== orgId) {
      throw ApiError.notFound(
        'KEY_NOT_FOUND',
        `Organization ${orgId} has no processing key ${keyId}`,
      );
    }
    await this.keys.revokeProcessingKey(keyId);
    this.processingKeyCache.evict(keyId);
    return (await this.keys.findProcessingKey(keyId))!;
  }

  /** Revokes a personal key of `userId`; 404 when the user has no such key. Idempotent. */
  async revokeAccountKey(userId: string, keyId: string): Promise<AccountKeySummary> {
    const key = await this.keys.findAccountKey(keyId);
    if (!key || key.userId !== userId) {
      throw ApiError.notFound('KEY_NOT_FOUND', `User ${userId} has no account key ${keyId}`);
    }
    await this.keys.revokeAccountKey(keyId);
    this.accountKeyCache.evict(keyId);
    return (await this.keys.findAccountKey(keyId))!;
  }

  /** The principal of a valid, unrevoked account key; null for anything else, processing keys included. */
  async verifyAccountKey(token: string): Promise<AccountPrincipal | null> {
    const parsed = parseToken(token);
    if (!parsed || parsed.kind !== 'account') return null;
    const key = await this.accountKeyCache.verify(parsed.keyId, token, this.loadAccountKey);
    return key ? accountPrincipal(key) : null;
  }

  /**
   * The principal of an account key this process has verified and still holds in memory
   * (the same entry `verifyAccountKey` answers from, evicted on revocation); undefined for
   * anything else, which only `verifyAccountKey` decides.
   */
  knownAccountPrincipal(token: string): AccountPrincipal | undefined {
    const parsed = parseToken(token);
    if (!parsed || parsed.kind !== 'account') return undefined;
    const key = this.accountKeyCache.known(parsed.keyId, token, this.loadAccountKey);
    return key ? accountPrincipal(key) : undefined;
  }

  private readonly loadAccountKey = (keyId: string) => this.keys.findAccountKeyForAuth(keyId);

  /**
   * The principal of the unrevoked account key `keyId`, without its secret: for a dashboard
   * session, whose signed cookie proves the key was presented at sign-in.
   */
  async accountPrincipalOfKey(keyId: string): Promise<AccountPrincipal | null> {
    const key = await this.accountKeyCache.record(keyId, this.loadAccountKey);
    if (!key || key.revoked) return null;
    return accountPrincipal(key);
  }

  /** The principal of a valid, unrevoked processing key; null for anything else, account keys included. */
  async verifyProcessingKey(token: string): Promise<ProcessingPrincipal | null> {
    const parsed = parseToken(token);
    if (!parsed || parsed.kind !== 'processing') return null;
    const key = await this.processingKeyCache.verify(parsed.keyId, token, (id) =>
      this.keys.findProcessingKeyForAuth(id),
    );
    if (!key) return null;
    return { kind: 'processing', keyId: key.keyId, orgId: key.orgId };
  }
}

function accountPrincipal(key: StoredAccountKey): AccountPrincipal {
  return { kind: 'account', keyId: key.keyId, userId: key.userId, defaultOrgId: key.defaultOrgId };
}

function checkName(name: string | null | undefined): string | null {
  if (name === null || name === undefined) return null;
  const label = labelOrNull(name);
  if (label !== null && label.length > MAX_KEY_NAME_LENGTH) {
    throw ApiError.badRequest(
      'INVALID_NAME',
      `Key name must be at most ${MAX_KEY_NAME_LENGTH} characters`,
    );
  }
  return label;
}
