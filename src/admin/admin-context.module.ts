import { DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import type { AppConfig } from '../config/app-config.js';
import { ConfigModule } from '../config/config.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { AdminCommandsModule } from './admin-commands.module.js';
import { UsageModule } from '../usage/usage.module.js';
import { MetricsModule } from '../common/metrics/metrics.module.js';

/**
 * What `docproc-admin` loads when no server owns the DuckDB file: the store and the
 * services the admin commands call, with no HTTP server, consumers or workers. A module
 * whose service a command uses must be listed here too.
 */
@Module({})
export class AdminContextModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AdminContextModule,
      imports: [
        ConfigModule.forRoot(config),
        MetricsModule,
        DatabaseModule,
        AccountsModule,
        UsageModule,
        AdminCommandsModule,
      ],
    };
  }
}
