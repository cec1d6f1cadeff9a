import { AdminAccountsContext } from '../admin/admin-accounts.context.js';
import type { ServiceLocator } from '../admin/admin-command.js';
import { runAdminCommand } from '../admin/admin-command.run.js';
import { ADMIN_COMMANDS } from '../admin/admin-commands.js';
import type { AppConfig } from '../config/app-config.js';
import type { AdminTransport } from './admin-transport.js';
import { asDatabaseLocked } from './database-locked.error.js';

interface DirectContext extends ServiceLocator {
  close(): void | Promise<void>;
}

/**
 * Opens the DuckDB file in this process, with the same services and migrations as the
 * server. Only used when no server owns the file. The account commands get their services
 * built by hand (`AdminAccountsContext`); a command of the usage plane loads Nest and a
 * reduced application context (no HTTP, consumers or workers) when it is the one run.
 */
export class DirectTransport implements AdminTransport {
  readonly mode = 'direct';

  private constructor(private readonly context: DirectContext) {}

  static async open(config: AppConfig, commandName: string): Promise<DirectTransport> {
    const usagePlane = ADMIN_COMMANDS.some((c) => c.name === commandName && c.usagePlane);
    try {
      const context = usagePlane
        ? await (await import('./nest-admin-context.js')).openNestAdminContext(config)
        : await AdminAccountsContext.open(config);
      return new DirectTransport(context);
    } catch (error) {
      throw asDatabaseLocked(error, config.databaseFile) ?? error;
    }
  }

  run(name: string, input: Record<string, unknown>): Promise<unknown> {
    return runAdminCommand(this.context, name, input);
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}
