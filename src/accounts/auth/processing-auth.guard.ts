import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { parseToken } from '../keys/api-key-token.js';
import { ApiKeyService } from '../keys/api-key.service.js';
import type { ProcessingPrincipal } from '../principal.js';
import { AuthenticatedRequest, bearerToken } from './bearer-token.js';

/** Key id recorded for keyless requests when authentication is disabled. */
export const ANONYMOUS_KEY_ID = 'anonymous';

/**
 * Document-processing API: requires `Authorization: Bearer <processing API key>` (a `dpk_`
 * key of an org). The spec's scheme is "skippable": with AUTH_DISABLED=true a request
 * without the header is accepted and attributed to AUTH_DEFAULT_ORG_ID, but a key that is
 * sent must still be valid, so a typo never silently bills the default org.
 */
@Injectable()
export class ProcessingAuthGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerToken(request);
    if (token === null && this.config.authDisabled && this.config.defaultOrgId) {
      const anonymous: ProcessingPrincipal = {
        kind: 'processing',
        keyId: ANONYMOUS_KEY_ID,
        orgId: this.config.defaultOrgId,
      };
      request.principal = anonymous;
      return true;
    }
    if (!token) {
      throw ApiError.unauthorized(
        'A processing API key is required: send Authorization: Bearer <API key>',
      );
    }
    const principal = await this.keys.verifyProcessingKey(token);
    if (!principal) {
      throw ApiError.unauthorized(
        parseToken(token)?.kind === 'account'
          ? 'This is an account API key; document processing needs a processing API key'
          : 'The processing API key is invalid or revoked',
      );
    }
    request.principal = principal;
    return true;
  }
}
