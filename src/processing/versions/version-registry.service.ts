import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/clock.js';
import { type AppConfig } from '../../config/app-config.js';
import { ConfigError } from '../../config/config-error.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { ModelVersionRepository } from './model-version.repository.js';
import type { ResolvedVersion } from '../../documents/versions/model-version.types.js';
import { VersionCatalog, VersionRegistryError, type FamilyListing } from './version-catalog.js';

/**
 * The model version registry of this process. Rows only change with a migration, so they
 * are read once at start-up; stages are computed on every call from the injected clock.
 */
@Injectable()
export class VersionRegistry implements OnModuleInit {
  private catalog?: VersionCatalog;

  constructor(
    private readonly repository: ModelVersionRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const [families, versions] = await Promise.all([
      this.repository.families(),
      this.repository.versions(),
    ]);
    try {
      this.catalog = new VersionCatalog(families, versions, this.config.frozenModelSnapshots);
    } catch (error) {
      // A frozen snapshot naming a version this registry lacks is a configuration error:
      // refuse to start with the variable named, like any other bad setting.
      if (error instanceof VersionRegistryError && error.variable) {
        throw new ConfigError(error.variable, error.message);
      }
      throw error;
    }
  }

  private get rules(): VersionCatalog {
    if (!this.catalog) throw new Error('VersionRegistry used before module init');
    return this.catalog;
  }

  now(): Date {
    return this.clock.now();
  }

  /** The pinned version when `requested` is given (422 when not available), else the default. */
  resolve(
    family: string,
    requested: string | undefined,
    loc: (string | number)[],
  ): ResolvedVersion {
    return this.rules.resolve(family, requested, this.clock.now(), loc);
  }

  /** What runs for `family` when nothing is pinned (e.g. the classifier's version). */
  current(family: string): ResolvedVersion {
    return this.rules.defaultVersion(family, this.clock.now());
  }

  listing(): { now: string; families: FamilyListing[] } {
    const now = this.clock.now();
    return { now: now.toISOString(), families: this.rules.listing(now) };
  }
}
