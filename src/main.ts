import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { applyHeapGrowth } from './common/heap-growth.js';
import { makeDataDirPrivate } from './common/private-data-dir.js';
import { loadConfig, type AppConfig } from './config/app-config.js';
import { ConfigError } from './config/config-error.js';
import { DuckDbService } from './database/duckdb.service.js';
import { createApp } from './app.factory.js';

/** Exit status of a process that stopped because its store failed (BSD EX_SOFTWARE). */
const STORE_FAILED_EXIT_CODE = 70;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`docproc: ${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  reportPrivateDataDir(config);
  applyHeapGrowth(config.heapGrowingPercent);
  const app = await createApp(config);
  exitWhenTheStoreFails(app, config);
  await app.listen({ port: config.port, host: config.host });
}

function reportPrivateDataDir(config: AppConfig): void {
  const database = config.databaseFile === ':memory:' ? [] : [config.databaseFile];
  const report = makeDataDirPrivate(config.dataDir, [
    ...database,
    ...database.map((file) => `${file}.wal`),
  ]);
  if (report.wasShared || report.tightened.length > 0) {
    process.stderr.write(
      `docproc: warning: DATA_DIR ${report.dir} was accessible to other users; ` +
        `made ${report.tightened.length} entr${report.tightened.length === 1 ? 'y' : 'ies'} ` +
        `private (folders 0700, files 0600)\n`,
    );
  }
}

/**
 * A store that failed (invalidated, out of memory) cannot be trusted with another write:
 * `/ready` already fails (DuckDbService's readiness); the process drains what it can (the
 * graceful close: in-flight requests, workers) and exits non-zero so a supervisor restarts
 * it, and the next start replays the log. A close that hangs is cut after the workers'
 * grace period.
 */
function exitWhenTheStoreFails(app: NestFastifyApplication, config: AppConfig): void {
  const db = app.get(DuckDbService, { strict: false });
  db.onFatalFailure((error) => {
    process.stderr.write(
      `docproc: the database failed and cannot be used any more (${error.message.split('\n')[0]}); ` +
        `draining and exiting with status ${STORE_FAILED_EXIT_CODE}\n`,
    );
    process.exitCode = STORE_FAILED_EXIT_CODE;
    setTimeout(
      () => process.exit(STORE_FAILED_EXIT_CODE),
      config.processing.workerShutdownGraceMs + 5_000,
    ).unref();
    void app.close().finally(() => process.exit(STORE_FAILED_EXIT_CODE));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `docproc: failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
