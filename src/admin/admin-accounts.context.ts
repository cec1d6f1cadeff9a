import type { Type } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service.js';
import { ensureDefaultOrg } from '../accounts/default-org.js';
import { ApiKeyRepository } from '../accounts/keys/api-key.repository.js';
import { ApiKeyService } from '../accounts/keys/api-key.service.js';
import { OrganizationRepository } from '../accounts/organization.repository.js';
import { UserRepository } from '../accounts/user.repository.js';
import type { AppConfig } from '../config/app-config.js';
import { DuckDbService } from '../database/duckdb.service.js';
import { applyMigrations } from '../database/migrations.js';
import { MetadataKeyRepository } from '../usage/metadata/metadata-key.repository.js';
import { MetadataKeyService } from '../usage/metadata/metadata-key.service.js';
import type { ServiceLocator } from './admin-command.js';

/**
 * The services of the account commands, built by hand over the DuckDB file: the same
 * classes, migrations and default org as the server's, without Nest's module graph, whose
 * loading (Nest, Swagger, class-validator, the usage plane) took docproc-admin's direct
 * path 1.6 s of CPU per command (docs/decisions/0088-admin-cli-direct-path-without-nest.md).
 * Commands marked `usagePlane` use the full `AdminContextModule` instead.
 */
export class AdminAccountsContext implements ServiceLocator {
  private constructor(
    private readonly db: DuckDbService,
    private readonly services: ReadonlyMap<Type<unknown>, unknown>,
  ) {}

  static async open(config: AppConfig): Promise<AdminAccountsContext> {
    const db = new DuckDbService(config);
    try {
      await db.open();
      await applyMigrations(db);
      const accounts = new AccountsService(new OrganizationRepository(db), new UserRepository(db));
      const services = new Map<Type<unknown>, unknown>([
        [AccountsService, accounts],
        [ApiKeyService, new ApiKeyService(new ApiKeyRepository(db), accounts)],
        [MetadataKeyService, new MetadataKeyService(config, new MetadataKeyRepository(db))],
      ]);
      await ensureDefaultOrg(config, accounts);
      return new AdminAccountsContext(db, services);
    } catch (error) {
      db.onApplicationShutdown();
      throw error;
    }
  }

  get<T>(type: Type<T>): T {
    if (!this.services.has(type)) {
      throw new Error(`${type.name} is not among the account services of docproc-admin`);
    }
    return this.services.get(type) as T;
  }

  close(): void {
    this.db.onApplicationShutdown();
  }
}
