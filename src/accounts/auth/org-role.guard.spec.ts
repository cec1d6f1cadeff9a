import { describe, expect, it, jest } from '@jest/globals';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AccountsService } from '../accounts.service.js';
import type { MemberRole } from '../accounts.types.js';
import { MANAGERS, MEMBERS, OrgAccess } from './org-access.decorator.js';
import { OrgRoleGuard } from './org-role.guard.js';

class Routes {
  @OrgAccess(MANAGERS)
  manage(): void {}

  @OrgAccess(MEMBERS, { from: 'query', field: 'orgId', optional: true })
  read(): void {}

  open(): void {}
}

function contextFor(handler: keyof Routes, request: Record<string, unknown>): ExecutionContext {
  return {
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
}

const ada = { kind: 'account', keyId: 'ak_1', userId: 'usr_ada', defaultOrgId: null };

function guardWith(roles: Record<string, MemberRole>) {
  const roleOf = jest.fn(async (_userId: string, orgId: string) => roles[orgId] ?? null);
  const sut = new OrgRoleGuard(new Reflector(), { roleOf } as unknown as AccountsService);
  return { sut, roleOf };
}

describe(OrgRoleGuard.name, () => {
  it('lets owners and admins manage, and refuses members with 403 INSUFFICIENT_ROLE', async () => {
    const { sut } = guardWith({ org_a: 'owner', org_b: 'admin', org_c: 'member' });
    const manage = (orgId: string) =>
      sut.canActivate(contextFor('manage', { principal: ada, params: { orgId } }));
    await expect(manage('org_a')).resolves.toBe(true);
    await expect(manage('org_b')).resolves.toBe(true);
    await expect(manage('org_c')).rejects.toMatchObject({
      status: 403,
      code: 'INSUFFICIENT_ROLE',
      response: {
        error: { message: expect.stringMatching(/owner or admin.*yours is member/) },
      },
    });
  });

  it('answers 403 NOT_A_MEMBER for an org the caller is not in (or that does not exist)', async () => {
    const { sut } = guardWith({});
    await expect(
      sut.canActivate(contextFor('manage', { principal: ada, params: { orgId: 'org_x' } })),
    ).rejects.toMatchObject({ status: 403, code: 'NOT_A_MEMBER' });
  });

  it('reads the org where the route says, and lets an optional one be left out', async () => {
    const { sut, roleOf } = guardWith({ org_c: 'member' });
    await expect(
      sut.canActivate(contextFor('read', { principal: ada, query: { orgId: 'org_c' } })),
    ).resolves.toBe(true);
    expect(roleOf).toHaveBeenCalledWith('usr_ada', 'org_c');
    await expect(sut.canActivate(contextFor('read', { principal: ada, query: {} }))).resolves.toBe(
      true,
    );
    await expect(
      sut.canActivate(contextFor('read', { principal: ada, query: { orgId: 'org_x' } })),
    ).rejects.toMatchObject({ code: 'NOT_A_MEMBER' });
  });

  it('leaves routes without a rule alone, and wants an account principal on those with one', async () => {
    const { sut, roleOf } = guardWith({});
    await expect(sut.canActivate(contextFor('open', {}))).resolves.toBe(true);
    expect(roleOf).not.toHaveBeenCalled();
    await expect(
      sut.canActivate(contextFor('manage', { params: { orgId: 'org_a' } })),
    ).rejects.toMatchObject({ status: 401 });
  });
});
