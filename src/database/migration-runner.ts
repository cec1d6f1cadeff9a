import { Injectable, Logger } from '@nestjs/common';
import { BlobStore } from './blob-store.js';
import { DuckDbService } from './duckdb.service.js';
import { applyMigrations, findSqlDirectory } from './migrations.js';

/** The migrations of `sql/` as a Nest provider, logging each file applied. */
@Injectable()
export class MigrationRunner {
  private readonly logger = new Logger(MigrationRunner.name);

  constructor(
    private readonly db: DuckDbService,
    private readonly blobs?: BlobStore,
  ) {}

  migrate(directory = findSqlDirectory()): Promise<string[]> {
    return applyMigrations(
      this.db,
      (file) => this.logger.log(`applied migration ${file}`),
      directory,
      this.blobs,
    );
  }
}
