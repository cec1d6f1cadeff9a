import { Global, Module, OnModuleInit } from '@nestjs/common';
import { DatabaseMetrics } from './database.metrics.js';
import { DuckDbService } from './duckdb.service.js';
import { MigrationRunner } from './migration-runner.js';

@Global()
@Module({
  providers: [DuckDbService, MigrationRunner, DatabaseMetrics],
  exports: [DuckDbService],
})
export class DatabaseModule implements OnModuleInit {
  constructor(
    private readonly db: DuckDbService,
    private readonly migrations: MigrationRunner,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.db.open();
    await this.migrations.migrate();
  }
}
