import { AdminAccountsContext } from '../admin/admin-accounts.context.js';
import type { ServiceLocator } from '../admin/admin-command.js';
import { runAdminCommand } from '../admin/admin-command.run.js';
import { ADMIN_COMMANDS } from '../admin/admin-commands.js';
import type { AppConfig } from '../config/app-config.js';
import type { AdminTransport } from './admin-transport.js';
import { DatabaseLockedError } from './database-locked.error.js';

/** DuckDB's message when another process holds the file's write lock. */
const LOCK_ERROR = /Could not set lock on file/i;

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
      const message = error instanceof Error ? error.message : String(error);
      if (LOCK_ERROR.test(message)) {
        const pid = /PID (\d+)/.exec(message);
        throw new DatabaseLockedError(config.databaseFile, pid ? Number(pid[1]) : null);
      }
      throw error;
    }
  }

  run(name: string, input: Record<string, unknown>): Promise<unknown> {
    return runAdminCommand(this.context, name, input);
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}
