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
import type { MetadataKeyPlaces } from '../usage/metadata/metadata-key-places.js';
import { MetadataKeyService } from '../usage/metadata/metadata-key.service.js';
import type { ServiceLocator } from './admin-command.js';

/** The places a ClickHouse usage store records under the cap on metadata keys, and its client's end. */
interface SharedPlaces {
  places: MetadataKeyPlaces;
  close(): Promise<void>;
}

/**
 * In ClickHouse mode, the store's own places (metadata-key-places.ts): a key enabled here is
 * counted and claimed there for every ingest process, and deleting a key's tracking records
 * its refusal and drops its rows there. Imported only then, like the ClickHouse client.
 */
async function sharedPlaces(config: AppConfig): Promise<SharedPlaces | null> {
  if (config.usage.store.kind !== 'clickhouse') return null;
  const [{ ClickHouseService }, { ClickHouseMetadataKeyPlaces }] = await Promise.all([
    import('../usage/clickhouse/clickhouse.service.js'),
    import('../usage/clickhouse/clickhouse-metadata-key-places.js'),
  ]);
  const clickhouse = new ClickHouseService(config);
  return {
    places: new ClickHouseMetadataKeyPlaces(clickhouse),
    close: () => clickhouse.onApplicationShutdown(),
  };
}

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
    private readonly shared: SharedPlaces | null,
  ) {}

  static async open(config: AppConfig): Promise<AdminAccountsContext> {
    const db = new DuckDbService(config);
    let shared: SharedPlaces | null = null;
    try {
      await db.open();
      await applyMigrations(db);
      shared = await sharedPlaces(config);
      const metadataKeys = new MetadataKeyService(
        config,
        new MetadataKeyRepository(db),
        shared?.places,
      );
      const accounts = new AccountsService(new OrganizationRepository(db), new UserRepository(db));
      const services = new Map<Type<unknown>, unknown>([
        [AccountsService, accounts],
        [ApiKeyService, new ApiKeyService(new ApiKeyRepository(db), accounts)],
        [MetadataKeyService, metadataKeys],
      ]);
      await ensureDefaultOrg(config, accounts);
      return new AdminAccountsContext(db, services, shared);
    } catch (error) {
      db.onApplicationShutdown();
      await shared?.close();
      throw error;
    }
  }

  get<T>(type: Type<T>): T {
    if (!this.services.has(type)) {
      throw new Error(`${type.name} is not among the account services of docproc-admin`);
    }
    return this.services.get(type) as T;
  }

  async close(): Promise<void> {
    this.db.onApplicationShutdown();
    await this.shared?.close();
  }
}
