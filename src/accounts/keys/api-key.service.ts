import { Injectable } from '../../common/nest-decorators.js';
import { ApiError } from '../../common/api-error.js';
import { AccountsService } from '../accounts.service.js';
import type { AccountKeySummary, CreatedKey, ProcessingKeySummary } from '../accounts.types.js';
import type { AccountPrincipal, ProcessingPrincipal } from '../principal.js';
import { ApiKeyRepository, StoredAccountKey, StoredProcessingKey } from './api-key.repository.js';
import { TtlCache } from '../../common/ttl-cache.js';
import { hashToken, issueToken, parseToken, tokenMatchesHash } from './api-key-token.js';

const MAX_KEY_NAME_LENGTH = 100;

/** Compared against when a key id is unknown, so a miss costs about what a hit does. */
const UNKNOWN_KEY_HASH = hashToken('docproc:no-such-key');

const KEY_CACHE_TTL_MS = 60_000;
const KEY_CACHE_MAX_ENTRIES = 10_000;

/** Issues, lists, revokes and verifies account and processing API keys. */
@Injectable()
export class ApiKeyService {
  private readonly accountKeyCache = new TtlCache<StoredAccountKey>(
    KEY_CACHE_TTL_MS,
    KEY_CACHE_MAX_ENTRIES,
  );
  private readonly processingKeyCache = new TtlCache<StoredProcessingKey>(
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
    this.processingKeyCache.delete(keyId);
    return (await this.keys.findProcessingKey(keyId))!;
  }

  /** Revokes a personal key of `userId`; 404 when the user has no such key. Idempotent. */
  async revokeAccountKey(userId: string, keyId: string): Promise<AccountKeySummary> {
    const key = await this.keys.findAccountKey(keyId);
    if (!key || key.userId !== userId) {
      throw ApiError.notFound('KEY_NOT_FOUND', `User ${userId} has no account key ${keyId}`);
    }
    await this.keys.revokeAccountKey(keyId);
    this.accountKeyCache.delete(keyId);
    return (await this.keys.findAccountKey(keyId))!;
  }

  /** The principal of a valid, unrevoked account key; null for anything else, processing keys included. */
  async verifyAccountKey(token: string): Promise<AccountPrincipal | null> {
    const parsed = parseToken(token);
    if (!parsed || parsed.kind !== 'account') return null;
    const key = await this.cached(this.accountKeyCache, parsed.keyId, (id) =>
      this.keys.findAccountKeyForAuth(id),
    );
    const matches = tokenMatchesHash(token, key?.secretHash ?? UNKNOWN_KEY_HASH);
    if (!key || !matches || key.revoked) return null;
    return {
      kind: 'account',
      keyId: key.keyId,
      userId: key.userId,
      defaultOrgId: key.defaultOrgId,
    };
  }

  /**
   * The principal of the unrevoked account key `keyId`, without its secret: for a dashboard
   * session, whose signed cookie proves the key was presented at sign-in.
   */
  async accountPrincipalOfKey(keyId: string): Promise<AccountPrincipal | null> {
    const key = await this.cached(this.accountKeyCache, keyId, (id) =>
      this.keys.findAccountKeyForAuth(id),
    );
    if (!key || key.revoked) return null;
    return {
      kind: 'account',
      keyId: key.keyId,
      userId: key.userId,
      defaultOrgId: key.defaultOrgId,
    };
  }

  /** The principal of a valid, unrevoked processing key; null for anything else, account keys included. */
  async verifyProcessingKey(token: string): Promise<ProcessingPrincipal | null> {
    const parsed = parseToken(token);
    if (!parsed || parsed.kind !== 'processing') return null;
    const key = await this.cached(this.processingKeyCache, parsed.keyId, (id) =>
      this.keys.findProcessingKeyForAuth(id),
    );
    const matches = tokenMatchesHash(token, key?.secretHash ?? UNKNOWN_KEY_HASH);
    if (!key || !matches || key.revoked) return null;
    return { kind: 'processing', keyId: key.keyId, orgId: key.orgId };
  }

  /**
   * Live key records are cached, never verdicts: every request still compares its token
   * with the stored hash. Unknown and revoked keys always go to the store; revocation in
   * this process evicts at once.
   */
  private async cached<T extends { revoked: boolean }>(
    cache: TtlCache<T>,
    keyId: string,
    load: (keyId: string) => Promise<T | null>,
  ): Promise<T | null> {
    const hit = cache.get(keyId);
    if (hit) return hit;
    const loaded = await load(keyId);
    if (loaded && !loaded.revoked) cache.set(keyId, loaded);
    return loaded;
  }
}

function checkName(name: string | null | undefined): string | null {
  if (name === null || name === undefined) return null;
  const trimmed = name.trim();
  if (trimmed.length > MAX_KEY_NAME_LENGTH) {
    throw ApiError.badRequest(
      'INVALID_NAME',
      `Key name must be at most ${MAX_KEY_NAME_LENGTH} characters`,
    );
  }
  return trimmed || null;
}
