import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AdminCommandRunner } from '../admin/admin-command.runner.js';
import { AdminContextModule } from '../admin/admin-context.module.js';
import type { AppConfig } from '../config/app-config.js';
import type { AdminTransport } from './admin-transport.js';
import { DatabaseLockedError } from './database-locked.error.js';

/** DuckDB's message when another process holds the file's write lock. */
const LOCK_ERROR = /Could not set lock on file/i;

/**
 * Opens the DuckDB file in this process, in a Nest application context (no HTTP) with the
 * same services and migrations as the server. Only used when no server owns the file.
 */
export class DirectTransport implements AdminTransport {
  readonly mode = 'direct';

  private constructor(private readonly context: INestApplicationContext) {}

  static async open(config: AppConfig): Promise<DirectTransport> {
    let context: INestApplicationContext | undefined;
    try {
      context = await NestFactory.createApplicationContext(AdminContextModule.forRoot(config), {
        logger: false,
        abortOnError: false,
      });
      return new DirectTransport(context);
    } catch (error) {
      await context?.close().catch(() => undefined);
      const message = error instanceof Error ? error.message : String(error);
      if (LOCK_ERROR.test(message)) {
        const pid = /PID (\d+)/.exec(message);
        throw new DatabaseLockedError(config.databaseFile, pid ? Number(pid[1]) : null);
      }
      throw error;
    }
  }

  run(name: string, input: Record<string, unknown>): Promise<unknown> {
    return this.context.get(AdminCommandRunner).run(name, input);
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}
