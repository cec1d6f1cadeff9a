import 'reflect-metadata';
import type { INestApplicationContext, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AdminContextModule } from '../admin/admin-context.module.js';
import type { AppConfig } from '../config/app-config.js';

/**
 * The admin application context (no HTTP) on the DuckDB file, for the commands of the
 * usage plane; imported only when one of them runs.
 */
export async function openNestAdminContext(config: AppConfig) {
  let context: INestApplicationContext | undefined;
  try {
    context = await NestFactory.createApplicationContext(AdminContextModule.forRoot(config), {
      logger: false,
      abortOnError: false,
    });
  } catch (error) {
    await context?.close().catch(() => undefined);
    throw error;
  }
  const app = context;
  return {
    get: <T>(type: Type<T>, options: { strict: false }): T => app.get(type, options),
    close: () => app.close(),
  };
}
