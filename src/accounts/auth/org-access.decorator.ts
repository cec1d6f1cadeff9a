import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import type { MemberRole } from '../accounts.types.js';
import { ORG_ACCESS, type OrgAccessRule, type OrgLocation } from './org-access.rule.js';
import { OrgRoleGuard } from './org-role.guard.js';

export { MANAGERS, MEMBERS } from './org-access.rule.js';

/**
 * The caller must hold one of `roles` in the organization the route names (by default the
 * `:orgId` path parameter): 403 NOT_A_MEMBER outside it, 403 INSUFFICIENT_ROLE with a role
 * too small. For routes of a controller guarded by AccountAuthGuard (class guards run
 * first, so the principal is known).
 */
export function OrgAccess(
  roles: readonly MemberRole[],
  org: OrgLocation = { from: 'params', field: 'orgId' },
): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ORG_ACCESS, { ...org, roles } satisfies OrgAccessRule),
    UseGuards(OrgRoleGuard),
  );
}
