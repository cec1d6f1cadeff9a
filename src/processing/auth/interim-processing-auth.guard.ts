import { createHash } from 'node:crypto';
import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../common/api-error.js';
import type { ProcessingPrincipal } from '../../accounts/principal.js';

/**
 * INTERIM until the accounts branch lands its ProcessingAuthGuard: any bearer token is a key
 * of its own organization. Replaced by `ProcessingAuthGuard` on rebase.
 */
@Injectable()
export class ProcessingAuthGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest & { principal?: unknown }>();
    const header = request.headers.authorization;
    const token = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
    if (!token) throw ApiError.unauthorized();
    const digest = createHash('sha256').update(token).digest('hex');
    const principal: ProcessingPrincipal = {
      kind: 'processing',
      keyId: `pk_${digest.slice(0, 12)}`,
      orgId: `org_${digest.slice(12, 24)}`,
    };
    request.principal = principal;
    return true;
  }
}

export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext) =>
    context.switchToHttp().getRequest<{ principal: ProcessingPrincipal }>().principal,
);
