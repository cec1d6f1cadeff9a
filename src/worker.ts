import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { SHUTDOWN_SIGNALS } from './common/shutdown-signals.js';
import { applyHeapGrowth } from './common/heap-growth.js';
import { loadConfig } from './config/app-config.js';
import { ConfigError } from './config/config-error.js';
import { WorkerModule } from './processing/worker/worker.module.js';

/** `npm run start:worker`: a new-queue (BullMQ) worker process, no HTTP server. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
    if (!config.operations.redis)
      throw new ConfigError('REDIS_URL', 'required by the worker process');
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`docproc-worker: ${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  // Whatever this process writes (on the shared DATA_DIR volume) stays private to its user.
  process.umask(0o077);
  applyHeapGrowth(config.heapGrowingPercent);
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), {
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks(SHUTDOWN_SIGNALS);
  await app.init();
}

main().catch((error: unknown) => {
  process.stderr.write(
    `docproc-worker: failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
