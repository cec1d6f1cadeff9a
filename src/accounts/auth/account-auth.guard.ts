import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { parseToken } from '../keys/api-key-token.js';
import { ApiKeyService } from '../keys/api-key.service.js';
import { AuthenticatedRequest, bearerToken } from './bearer-token.js';
import { SessionCookieService } from './session-cookie.service.js';

/**
 * Account dashboard API: requires `Authorization: Bearer <account API key>` (a personal
 * `dpa_` key). Missing or invalid keys, processing keys included, get 401. Without the
 * header, the dashboard's session cookie stands for the account key it was exchanged for.
 */
@Injectable()
export class AccountAuthGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeyService,
    private readonly sessions: SessionCookieService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerToken(request);
    if (token === null) {
      const session = await this.sessions.authenticate(request);
      if (session) {
        request.principal = session.principal;
        return true;
      }
    }
    if (!token) {
      throw ApiError.unauthorized(
        'An account API key is required: send Authorization: Bearer <account API key>',
      );
    }
    const principal = await this.keys.verifyAccountKey(token);
    if (!principal) {
      throw ApiError.unauthorized(
        parseToken(token)?.kind === 'processing'
          ? 'This is a processing API key; the account API needs a personal account API key'
          : 'The account API key is invalid or revoked',
      );
    }
    request.principal = principal;
    return true;
  }
}
