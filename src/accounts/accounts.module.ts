import { Inject, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { AccountsService } from './accounts.service.js';
import { ensureDefaultOrg } from './default-org.js';
import { AccountKeysController } from './dashboard/account-keys.controller.js';
import { OrgsController } from './dashboard/orgs.controller.js';
import { AccountAuthGuard } from './auth/account-auth.guard.js';
import { ProcessingAuthGuard } from './auth/processing-auth.guard.js';
import { SessionCookieService } from './auth/session-cookie.service.js';
import { SessionSecretRepository } from './auth/session-secret.repository.js';
import { ApiKeyRepository } from './keys/api-key.repository.js';
import { ApiKeyService } from './keys/api-key.service.js';
import { OrganizationRepository } from './organization.repository.js';
import { UserRepository } from './user.repository.js';

/**
 * Organizations, users, memberships and API keys, plus the two auth guards: a module whose
 * controllers use `@UseGuards(AccountAuthGuard)` or `@UseGuards(ProcessingAuthGuard)` imports
 * this one, so the dependency is visible.
 */
@Module({
  controllers: [OrgsController, AccountKeysController],
  providers: [
    OrganizationRepository,
    UserRepository,
    ApiKeyRepository,
    AccountsService,
    ApiKeyService,
    AccountAuthGuard,
    ProcessingAuthGuard,
    SessionSecretRepository,
    SessionCookieService,
  ],
  exports: [
    AccountsService,
    ApiKeyService,
    AccountAuthGuard,
    ProcessingAuthGuard,
    SessionCookieService,
  ],
})
export class AccountsModule implements OnApplicationBootstrap {
  private readonly logger = new Logger(AccountsModule.name);

  constructor(
    private readonly accounts: AccountsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const org = await ensureDefaultOrg(this.config, this.accounts);
    if (!org) return;
    this.logger.warn(
      `AUTH_DISABLED=true: processing requests without a key are attributed to ${org.orgId}`,
    );
  }
}
