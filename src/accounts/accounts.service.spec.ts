import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import { AccountsService } from './accounts.service.js';
import type { OrganizationRepository } from './organization.repository.js';
import type { UserRepository } from './user.repository.js';

describe(AccountsService.name, () => {
  let sut: AccountsService;
  let users: { insert: jest.Mock; findByEmail: jest.Mock; findById: jest.Mock };
  let orgs: {
    insert: jest.Mock;
    findById: jest.Mock;
    findMembership: jest.Mock;
    upsertMembership: jest.Mock;
  };

  beforeEach(() => {
    users = {
      insert: jest.fn(async (userId: unknown, email: unknown) => ({
        userId,
        email,
        createdAt: '',
      })),
      findByEmail: jest.fn(async () => null),
      findById: jest.fn(async () => null),
    };
    orgs = {
      insert: jest.fn(async (orgId: unknown, name: unknown) => ({ orgId, name, createdAt: '' })),
      findById: jest.fn(async () => null),
      findMembership: jest.fn(async () => null),
      upsertMembership: jest.fn(async () => ({})),
    };
    sut = new AccountsService(
      orgs as unknown as OrganizationRepository,
      users as unknown as UserRepository,
    );
  });

  it('stores emails trimmed and lower-cased with a usr_ id', async () => {
    await sut.createUser('  Ada@Example.COM ');
    expect(users.insert).toHaveBeenCalledWith(
      expect.stringMatching(/^usr_[0-9a-f]{16}$/),
      'ada@example.com',
    );
  });

  it.each(['', 'ada', 'ada@', '@example.com', 'a b@example.com'])(
    'refuses the invalid email %j',
    async (email) => {
      await expect(sut.createUser(email)).rejects.toMatchObject({ code: 'INVALID_EMAIL' });
      expect(users.insert).not.toHaveBeenCalled();
    },
  );

  it('refuses a second user with the same email in another spelling', async () => {
    users.findByEmail.mockImplementation(async () => ({ userId: 'usr_1' }));
    await expect(sut.createUser('ADA@example.com')).rejects.toMatchObject({
      code: 'EMAIL_TAKEN',
    });
  });

  it('refuses blank and over-long org names', async () => {
    await expect(sut.createOrg('   ')).rejects.toMatchObject({ code: 'INVALID_NAME' });
    await expect(sut.createOrg('x'.repeat(201))).rejects.toMatchObject({ code: 'INVALID_NAME' });
    expect(orgs.insert).not.toHaveBeenCalled();
  });

  it('adds a member only when both org and user exist', async () => {
    await expect(sut.addMember('org_x', 'usr_x')).rejects.toMatchObject({
      code: 'ORG_NOT_FOUND',
    });
    orgs.findById.mockImplementation(async () => ({ orgId: 'org_x' }));
    await expect(sut.addMember('org_x', 'usr_x')).rejects.toMatchObject({
      code: 'USER_NOT_FOUND',
    });
    users.findById.mockImplementation(async () => ({ userId: 'usr_x' }));
    await sut.addMember('org_x', 'usr_x');
    expect(orgs.upsertMembership).toHaveBeenCalledWith('org_x', 'usr_x', 'member');
  });

  it('knows no role for non-members', async () => {
    expect(await sut.roleOf('usr_x', 'org_x')).toBeNull();
    expect(await sut.isMember('usr_x', 'org_x')).toBe(false);
  });

  it('sees a role change made through it at once, despite its cache', async () => {
    orgs.findById.mockImplementation(async () => ({ orgId: 'org_x' }));
    users.findById.mockImplementation(async () => ({ userId: 'usr_x' }));
    orgs.findMembership.mockImplementation(async () => ({ role: 'member' }));
    expect(await sut.roleOf('usr_x', 'org_x')).toBe('member');
    await sut.addMember('org_x', 'usr_x', 'admin');
    expect(await sut.roleOf('usr_x', 'org_x')).toBe('admin');
  });
});
