import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthenticatedRequest } from './bearer-token.js';

/**
 * The principal an auth guard set on the request. Use it behind `AccountAuthGuard`
 * (type it `AccountPrincipal`) or `ProcessingAuthGuard` (`ProcessingPrincipal`).
 */
export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext) =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().principal,
);
