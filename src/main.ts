import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { applyHeapGrowth } from './common/heap-growth.js';
import { makeDataDirPrivate } from './common/private-data-dir.js';
import { isDependencyUnreachable } from './common/http/dependency-unavailable.js';
import { loadConfig, type AppConfig } from './config/app-config.js';
import { ConfigError } from './config/config-error.js';
import { StartRefusedError } from './common/start-refused.error.js';
import { DuckDbService } from './database/duckdb.service.js';
import { createApp } from './app.factory.js';

/** Exit status of a process that stopped because its store failed (BSD EX_SOFTWARE). */
const STORE_FAILED_EXIT_CODE = 70;
/** Exit status of a start the environment prevents: data dir, address, a replica's snapshot (BSD EX_OSERR). */
const START_REFUSED_EXIT_CODE = 71;
/** How long a start that failed waits for its workers to stop before it exits. */
const START_FAILED_CLOSE_MS = 10_000;

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
  try {
    reportPrivateDataDir(config);
    probeDataDir(config.dataDir);
  } catch (error) {
    refuseToStart(`DATA_DIR ${config.dataDir} is not usable`, error);
  }
  applyHeapGrowth(config.heapGrowingPercent);
  const app = await createApp(config);
  exitWhenTheStoreFails(app, config);
  // Started apart from listening, so a failure of either is named for what it is.
  try {
    await app.init();
  } catch (error) {
    if (error instanceof StartRefusedError) {
      await closeWithin(app);
      refuseToStart(error.message);
    }
    if (!isDependencyUnreachable(error)) throw error;
    await closeWithin(app);
    refuseToStart(
      'failed to start: a service it needs is unreachable (KAFKA_BROKERS, REDIS_URL, CLICKHOUSE_URL)',
      error,
    );
  }
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    if (!isSystemError(error)) throw error;
    await closeWithin(app);
    refuseToStart(`cannot listen on ${config.host}:${config.port} (HOST, PORT)`, error);
  }
}

/** Workers already run: lets them put back what they claimed before the process ends. */
async function closeWithin(app: NestFastifyApplication): Promise<void> {
  await Promise.race([app.close().catch(() => undefined), sleep(START_FAILED_CLOSE_MS)]);
}

/**
 * Writes and removes a file in the data dir, so a read-only or full volume stops the start
 * with its name instead of failing the first upload or job.
 */
function probeDataDir(dir: string): void {
  const probe = path.join(dir, `.start-probe.${process.pid}`);
  try {
    fs.writeFileSync(probe, 'docproc');
  } finally {
    fs.rmSync(probe, { force: true });
  }
}

/** A system error (`EROFS`, `EADDRINUSE`, `ENOTFOUND`, ...): the environment, not a defect. */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}

/**
 * Stops a start the environment prevents with one line naming what to change; a stack
 * would only hide it. Anything else is a defect and keeps its stack (main's catch).
 */
function refuseToStart(what: string, error?: unknown): never {
  if (error !== undefined && !isSystemError(error)) throw error;
  process.stderr.write(`docproc: ${what}${error === undefined ? '' : `: ${error.message}`}\n`);
  process.exit(START_REFUSED_EXIT_CODE);
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
