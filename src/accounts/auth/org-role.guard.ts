import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../../common/api-error.js';
import { AccountsService } from '../accounts.service.js';
import type { MemberRole } from '../accounts.types.js';
import type { AccountPrincipal } from '../principal.js';
import type { AuthenticatedRequest } from './bearer-token.js';
import { ORG_ACCESS, type OrgAccessRule } from './org-access.rule.js';

/**
 * The one place organization roles are enforced (spec roles `owner|admin|member`): runs
 * after AccountAuthGuard on routes marked `@OrgAccess(...)`.
 */
@Injectable()
export class OrgRoleGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly accounts: AccountsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<OrgAccessRule | undefined>(ORG_ACCESS, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!rule) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const principal = request.principal as AccountPrincipal | undefined;
    if (principal?.kind !== 'account') {
      throw ApiError.unauthorized('An account API key is required');
    }
    const orgId = orgIdOf(request, rule);
    if (orgId === null) {
      if (rule.optional) return true;
      throw ApiError.badRequest('ORG_ID_REQUIRED', `${rule.field} is required`);
    }
    const refusal = orgAccessRefusal(
      rule,
      orgId,
      await this.accounts.roleOf(principal.userId, orgId),
    );
    if (refusal) throw refusal;
    return true;
  }
}

/** Why a caller holding `role` in `orgId` (null: none) may not take the route; null when it may. */
export function orgAccessRefusal(
  rule: OrgAccessRule,
  orgId: string,
  role: MemberRole | null,
): ApiError | null {
  if (role === null) {
    // An unknown org answers the same, so org ids do not leak.
    return ApiError.forbidden('NOT_A_MEMBER', `You are not a member of organization ${orgId}`);
  }
  if (!rule.roles.includes(role)) {
    return ApiError.forbidden(
      'INSUFFICIENT_ROLE',
      `This needs the role ${rule.roles.join(' or ')} in organization ${orgId}; yours is ${role}`,
    );
  }
  return null;
}

function orgIdOf(request: AuthenticatedRequest, rule: OrgAccessRule): string | null {
  const source = request[rule.from] as Record<string, unknown> | undefined | null;
  const value = source && typeof source === 'object' ? source[rule.field] : undefined;
  // A repeated query parameter or a non-string body field is left to validation to refuse.
  return typeof value === 'string' && value !== '' ? value : null;
}
