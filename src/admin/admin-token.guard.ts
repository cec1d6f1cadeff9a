import { createHash, timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../accounts/auth/bearer-token.js';
import { ApiError } from '../common/api-error.js';
import { AdminEndpointService } from './admin-endpoint.service.js';

/** Admin endpoints answer only to this server's admin token (from DATA_DIR/admin.json). */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(private readonly endpoint: AdminEndpointService) {}

  canActivate(context: ExecutionContext): boolean {
    const token = bearerToken(context.switchToHttp().getRequest<FastifyRequest>());
    if (!token || !sameSecret(token, this.endpoint.token)) {
      throw ApiError.unauthorized('The admin token is missing or wrong');
    }
    return true;
  }
}

/** Constant-time comparison; hashing first makes the lengths equal without leaking them. */
function sameSecret(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
