import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import { ApiError } from '../../common/api-error.js';
import type { AccountsService } from '../accounts.service.js';
import type {
  ApiKeyRepository,
  StoredAccountKey,
  StoredProcessingKey,
} from './api-key.repository.js';
import { ApiKeyService } from './api-key.service.js';

/** An in-memory stand-in for the repository, so the service's own rules are what is tested. */
function fakeRepository() {
  const accountKeys = new Map<string, StoredAccountKey>();
  const processingKeys = new Map<string, StoredProcessingKey & { name: string | null }>();
  const repo = {
    insertAccountKey: jest.fn(async (key: Parameters<ApiKeyRepository['insertAccountKey']>[0]) => {
      accountKeys.set(key.keyId, { ...key, revoked: false });
    }),
    insertProcessingKey: jest.fn(
      async (key: Parameters<ApiKeyRepository['insertProcessingKey']>[0]) => {
        processingKeys.set(key.keyId, { ...key, revoked: false });
      },
    ),
    findAccountKeyForAuth: jest.fn(async (id: string) => accountKeys.get(id) ?? null),
    findProcessingKeyForAuth: jest.fn(async (id: string) => processingKeys.get(id) ?? null),
    findProcessingKey: jest.fn(async (id: string) => {
      const key = processingKeys.get(id);
      return key
        ? {
            keyId: key.keyId,
            orgId: key.orgId,
            name: key.name,
            createdAt: '2026-01-01T00:00:00.000Z',
            revokedAt: key.revoked ? '2026-01-02T00:00:00.000Z' : null,
          }
        : null;
    }),
    revokeProcessingKey: jest.fn(async (id: string) => {
      processingKeys.get(id)!.revoked = true;
    }),
  };
  return { repo, accountKeys, processingKeys };
}

function fakeAccounts(members: Record<string, string[]>) {
  return {
    requireUser: jest.fn(async (userId: string) => {
      if (!(userId in members)) throw ApiError.notFound('USER_NOT_FOUND', userId);
      return { userId, email: 'x@example.com', createdAt: '' };
    }),
    requireOrg: jest.fn(async (orgId: string) => {
      if (!Object.values(members).flat().includes(orgId) && orgId !== 'org_empty')
        throw ApiError.notFound('ORG_NOT_FOUND', orgId);
      return { orgId, name: orgId, createdAt: '' };
    }),
    isMember: jest.fn(async (userId: string, orgId: string) =>
      (members[userId] ?? []).includes(orgId),
    ),
  };
}

describe(ApiKeyService.name, () => {
  let sut: ApiKeyService;
  let store: ReturnType<typeof fakeRepository>;

  beforeEach(() => {
    store = fakeRepository();
    const accounts = fakeAccounts({ usr_a: ['org_a'], usr_b: [] });
    sut = new ApiKeyService(
      store.repo as unknown as ApiKeyRepository,
      accounts as unknown as AccountsService,
    );
  });

  it('verifies a fresh account key to its user and default org', async () => {
    const created = await sut.createAccountKey('usr_a', { defaultOrgId: 'org_a' });
    expect(await sut.verifyAccountKey(created.secret)).toEqual({
      kind: 'account',
      keyId: created.keyId,
      userId: 'usr_a',
      defaultOrgId: 'org_a',
    });
  });

  it('stores only the hash, never the secret', async () => {
    const created = await sut.createProcessingKey('org_a', { name: 'ci' });
    const stored = JSON.stringify([...store.processingKeys.values()]);
    expect(stored).not.toContain(created.secret);
    expect(stored).not.toContain(created.secret.slice(21));
  });

  it('refuses a default org the user does not belong to', async () => {
    await expect(sut.createAccountKey('usr_b', { defaultOrgId: 'org_a' })).rejects.toMatchObject({
      code: 'NOT_A_MEMBER',
    });
    expect(store.repo.insertAccountKey).not.toHaveBeenCalled();
  });

  it('does not accept a processing key as an account key, nor the reverse', async () => {
    const processing = await sut.createProcessingKey('org_a');
    const account = await sut.createAccountKey('usr_a');
    expect(await sut.verifyAccountKey(processing.secret)).toBeNull();
    expect(await sut.verifyProcessingKey(account.secret)).toBeNull();
    expect(await sut.verifyProcessingKey(processing.secret)).toEqual({
      kind: 'processing',
      keyId: processing.keyId,
      orgId: 'org_a',
    });
  });

  it('rejects a token whose key id exists but whose secret differs', async () => {
    const created = await sut.createProcessingKey('org_a');
    const forged = created.secret.slice(0, 21) + 'f'.repeat(64);
    expect(await sut.verifyProcessingKey(forged)).toBeNull();
  });

  it('rejects unknown and malformed tokens', async () => {
    expect(await sut.verifyProcessingKey('dpk_0123456789abcdef_' + '0'.repeat(64))).toBeNull();
    expect(await sut.verifyAccountKey('not-a-key')).toBeNull();
    expect(store.repo.findAccountKeyForAuth).not.toHaveBeenCalled();
  });

  it('rejects a revoked key and keeps revocation scoped to the owning org', async () => {
    const created = await sut.createProcessingKey('org_a');
    await expect(sut.revokeProcessingKey('org_empty', created.keyId)).rejects.toMatchObject({
      code: 'KEY_NOT_FOUND',
    });
    expect(await sut.verifyProcessingKey(created.secret)).not.toBeNull();
    const revoked = await sut.revokeProcessingKey('org_a', created.keyId);
    expect(revoked.revokedAt).not.toBeNull();
    expect(await sut.verifyProcessingKey(created.secret)).toBeNull();
  });

  it('serves a busy key from cache but refuses it as soon as it is revoked here', async () => {
    const created = await sut.createProcessingKey('org_a');
    expect(await sut.verifyProcessingKey(created.secret)).not.toBeNull();
    expect(await sut.verifyProcessingKey(created.secret)).not.toBeNull();
    expect(store.repo.findProcessingKeyForAuth).toHaveBeenCalledTimes(1);
    await sut.revokeProcessingKey('org_a', created.keyId);
    expect(await sut.verifyProcessingKey(created.secret)).toBeNull();
  });

  it('still checks the secret of a cached key', async () => {
    const created = await sut.createProcessingKey('org_a');
    await sut.verifyProcessingKey(created.secret);
    const forged = created.secret.slice(0, 21) + 'e'.repeat(64);
    expect(await sut.verifyProcessingKey(forged)).toBeNull();
  });

  it('refuses over-long key names', async () => {
    await expect(sut.createProcessingKey('org_a', { name: 'x'.repeat(101) })).rejects.toMatchObject(
      { code: 'INVALID_NAME' },
    );
  });
});
