import { Injectable, Logger } from '@nestjs/common';
import { DuckDbService } from './duckdb.service.js';
import { applyMigrations, findSqlDirectory } from './migrations.js';

/** The migrations of `sql/` as a Nest provider, logging each file applied. */
@Injectable()
export class MigrationRunner {
  private readonly logger = new Logger(MigrationRunner.name);

  constructor(private readonly db: DuckDbService) {}

  migrate(directory = findSqlDirectory()): Promise<string[]> {
    return applyMigrations(
      this.db,
      (file) => this.logger.log(`applied migration ${file}`),
      directory,
    );
  }
}
