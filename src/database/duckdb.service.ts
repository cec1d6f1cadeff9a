import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OnApplicationShutdown } from '@nestjs/common';
import { HttpStatus, Inject, Injectable } from '../common/nest-decorators.js';
import type { DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api';
import { duckdb } from './duckdb-api.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import type { AppConfig } from '../config/app-config.js';
import { Mutex } from '../common/mutex.js';
import { ApiError } from '../common/api-error.js';
import { leastBusy, ReaderConnection } from './reader-connection.js';
import type { ReadinessCheck, ReadinessReport } from '../common/health/readiness.service.js';
import { isFatalStoreError, storeFailedError } from './store-failure.js';

/**
 * Read connections, one per core (at least 2): a connection runs one statement at a time,
 * and DuckDB spreads each statement over the instance's threads (one per core), so more
 * connections than cores only make statements wait for CPU inside DuckDB instead of in
 * the reader queue, where a cached answer or a single-flight partner can still catch them.
 */
const READERS = Math.max(2, os.availableParallelism());
/** How long a replaced read-only file stays open for the reads still running on it. */
const RETIRE_MS = 60_000;

export type SqlParams = DuckDBValue[] | Record<string, DuckDBValue>;
export type Row = Record<string, unknown>;

/**
 * The one DuckDB instance of this process. Reads go through a small pool of
 * connections so exports run in parallel; every write goes through one writer
 * connection behind a mutex, because DuckDB's optimistic concurrency would
 * otherwise abort concurrent writers on conflicting rows.
 */
@Injectable()
export class DuckDbService implements OnApplicationShutdown, ReadinessCheck {
  readonly name = 'database';
  private instance!: DuckDBInstance;
  private failure: Error | null = null;
  private readonly failureListeners: ((error: Error) => void)[] = [];
  private writerConnection: DuckDBConnection | null = null;
  private readers: ReaderConnection[] = [];
  private nextReader = 0;
  private readonly writeLock = new Mutex();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * Not ready once a statement failed in a way that leaves the store unusable (invalidated,
   * out of memory): the instance must stop taking traffic and restart.
   */
  readiness(): ReadinessReport {
    if (!this.failure) return { ready: true, detail: {} };
    return { ready: false, detail: { error: this.failure.message.slice(0, 500) } };
  }

  /** Hears, once, that the store failed fatally (the entry point drains and exits). */
  onFatalFailure(listener: (error: Error) => void): void {
    this.failureListeners.push(listener);
  }

  /** The first fatal error, if any. */
  get fatalFailure(): Error | null {
    return this.failure;
  }

  /**
   * Runs a statement's promise, noting a fatal store error; once the store failed, errors
   * reach clients as 503 STORE_UNAVAILABLE (with Retry-After), not as a 500.
   */
  private async guarded<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      if (isFatalStoreError(error)) this.fail(error as Error);
      if (this.failure) throw storeFailedError(this.failure);
      throw error;
    }
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    for (const listener of this.failureListeners) listener(error);
  }

  /** DATA_DIR of the store: payloads the rows refer to live under it (BlobStore). */
  get dataDir(): string {
    return this.config.dataDir;
  }

  async open(): Promise<void> {
    if (this.instance) return;
    const file = this.config.databaseFile;
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    const options = {
      disabled_optimizers: STATS_DEPENDENT_OPTIMIZERS,
      checkpoint_threshold: this.config.duckdbCheckpointThreshold,
      memory_limit: this.config.duckdbMemoryLimit,
      ...threadsOption(this.config.duckdbThreads),
    };
    // A log left by a process that ended without its shutdown checkpoint (kill -9, a crash,
    // the exit after a failed store) is replayed by the open below.
    const replaysLog = file !== ':memory:' && fs.existsSync(`${file}.wal`);
    try {
      this.instance = await openWithRetry(file, options);
    } catch (error) {
      if (!isFatalStoreError(error)) throw error;
      await checkpointWithoutLimit(file, options, error as Error);
      this.instance = await openWithRetry(file, options);
    }
    this.writerConnection = await this.instance.connect();
    // DuckDB 1.5 replays a log's rows into the secondary indexes (CREATE INDEX) only once a
    // statement binds them; should this process end first, its shutdown checkpoint writes
    // those indexes without the replayed rows, and deleting such a row later is a fatal
    // "Failed to delete all rows from index", at every start again (an open DuckDB bug).
    // A checkpoint made by a statement binds them first, so the replayed rows are written.
    if (replaysLog) await this.writerConnection.run('CHECKPOINT');
    for (let i = 0; i < READERS; i++)
      this.readers.push(new ReaderConnection(await this.instance.connect()));
  }

  /**
   * Opens `file` read-only, with readers and no writer (an export replica's snapshot), or
   * swaps to a newer one: later reads go to the new file at once, and the previous file's
   * connections are closed after `RETIRE_MS`, once the reads still running on them finished.
   */
  async openReadOnly(file: string): Promise<void> {
    const instance = await duckdb.DuckDBInstance.create(file, {
      access_mode: 'READ_ONLY',
      disabled_optimizers: STATS_DEPENDENT_OPTIMIZERS,
      memory_limit: this.config.duckdbMemoryLimit,
      ...threadsOption(this.config.duckdbThreads),
    });
    const readers: ReaderConnection[] = [];
    for (let i = 0; i < READERS; i++) readers.push(new ReaderConnection(await instance.connect()));
    const previous = this.instance ? { instance: this.instance, readers: this.readers } : null;
    this.instance = instance;
    this.readers = readers;
    if (previous) {
      setTimeout(() => {
        for (const reader of previous.readers) reader.close();
        previous.instance.closeSync();
      }, RETIRE_MS).unref();
    }
  }

  /** The writer connection; a read-only instance (an export replica) refuses writes. */
  private get writer(): DuckDBConnection {
    if (this.writerConnection) return this.writerConnection;
    throw new ApiError(
      HttpStatus.SERVICE_UNAVAILABLE,
      'READ_ONLY_REPLICA',
      'This instance is a read-only export replica; changes go to the writer instance',
    );
  }

  /** Runs one read-only statement on a pooled connection and returns plain JS row objects. */
  all<T = Row>(sql: string, params?: SqlParams): Promise<T[]> {
    return this.guarded(leastBusy(this.readers, this.nextReader++).all<T>(sql, params));
  }

  /** Runs a query and streams its rows in chunks, for large exports. */
  async *stream<T = Row>(sql: string, params?: SqlParams): AsyncGenerator<T[]> {
    const connection = await this.guarded(this.instance.connect());
    try {
      const result = await this.guarded(connection.stream(sql, params));
      const names = result.columnNames();
      for (;;) {
        const chunk = await this.guarded(result.fetchChunk());
        if (!chunk || chunk.rowCount === 0) break;
        const rows = chunk.convertRows(duckdb.JSDuckDBValueConverter);
        yield rows.map(
          (values) => Object.fromEntries(names.map((name, i) => [name, values[i]])) as T,
        );
      }
    } finally {
      connection.closeSync();
    }
  }

  /**
   * Runs `work` on a connection of its own, outside the writer lock: long reads (a
   * snapshot copy) that must neither hold a pooled reader nor stop ingestion.
   */
  async withConnection<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const connection = await this.guarded(this.instance.connect());
    try {
      return await this.guarded(work(connection));
    } finally {
      connection.closeSync();
    }
  }

  /** Runs one write statement on the writer connection. */
  async run(sql: string, params?: SqlParams): Promise<void> {
    await this.guarded(
      this.writeLock.runExclusive(async () => {
        await this.writer.run(sql, params);
      }),
    );
  }

  /** Runs one write statement that returns rows (`RETURNING`) on the writer connection. */
  async runReturning<T = Row>(sql: string, params?: SqlParams): Promise<T[]> {
    return this.guarded(
      this.writeLock.runExclusive(async () => {
        const reader = await this.writer.runAndReadAll(sql, params);
        return reader.getRowObjectsJS() as T[];
      }),
    );
  }

  /**
   * Gives `work` the writer connection alone, for repositories that need more than
   * statements (appenders, temp tables) around their own transaction: the bulk writes
   * (ingestion, roll-up and clustering steps), after which the memory they freed is
   * handed back to the system (releaseFreedMemory).
   */
  async exclusive<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.guarded(
      this.writeLock.runExclusive(async () => {
        const result = await work(this.writer);
        await this.releaseFreedMemory(this.writer);
        return result;
      }),
    );
  }

  /**
   * Hands the pages DuckDB's allocator (jemalloc) keeps after frees back to the system now.
   * It keeps them for seconds so the next statements reuse them without page faults, which
   * is cheap; but a bulk write frees its staging and a checkpoint frees the table data it
   * compressed, and kept across the next write and checkpoint those pages add up to the
   * process's peak (docs/decisions/0389-duckdb-freed-memory-returned-after-bulk-writes.md).
   * Re-setting the memory limit to its own value is DuckDB's one SQL path to its allocator
   * flush (the buffer pool purges every arena after applying a limit); nothing is evicted,
   * and a failure only leaves the pages where they are.
   */
  async releaseFreedMemory(connection: DuckDBConnection): Promise<void> {
    // The limit is a validated size (byteSize): no parameter can carry a setting's value.
    await connection
      .run(`SET memory_limit = '${this.config.duckdbMemoryLimit}'`)
      .catch(() => undefined);
  }

  /** Runs `work` inside one transaction on the writer connection; rolls back when it throws. */
  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.guarded(this.transactionUnguarded(work));
  }

  private transactionUnguarded<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.writeLock.runExclusive(async () => {
      await this.writer.run('BEGIN TRANSACTION');
      try {
        const tx = new Transaction(this.writer);
        const result = await work(tx);
        await this.writer.run('COMMIT');
        tx.committed();
        return result;
      } catch (error) {
        await this.writer.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  onApplicationShutdown(): void {
    for (const reader of this.readers) reader.close();
    this.writerConnection?.closeSync();
    this.readers = [];
    this.instance?.closeSync();
  }
}

/**
 * DuckDB plans a prepared statement with the table statistics of the moment it was prepared
 * and does not re-plan when later writes widen them. Executed again (our readers keep
 * statements prepared; any parameterized query is prepared and executed in two steps with
 * a commit possibly between) the plan then folds filters to the old min/max and null counts
 * (`WHERE n > 10` counted 0 of 2 matching rows), cuts strings to the old maximum length in
 * GROUP BY/DISTINCT, and crashed the server with SIGSEGV in ORDER BY on a string longer
 * than any before it (docs/decisions/0051-statistics-optimizers-disabled.md).
 * These two optimizers are what uses the statistics at plan time.
 */
/** DuckDB's `threads` when the setting names a count; 0 leaves DuckDB's own (one per core). */
function threadsOption(threads: number): { threads?: string } {
  return threads > 0 ? { threads: String(threads) } : {};
}

export const STATS_DEPENDENT_OPTIMIZERS = 'statistics_propagation,compressed_materialization';

/**
 * `docproc-admin` opens the file for a moment when no server runs; a server
 * starting in that moment waits for it instead of failing on the lock.
 */
async function openWithRetry(
  file: string,
  options: Record<string, string>,
  attempts = 20,
  delayMs = 250,
): Promise<DuckDBInstance> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await duckdb.DuckDBInstance.create(file, options);
    } catch (error) {
      const locked = error instanceof Error && /Could not set lock on file/i.test(error.message);
      if (!locked || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

/**
 * A start whose write-ahead log does not fit the memory limit (a previous process died
 * holding more in it than the limit, e.g. after raising the limit by hand) would fail on
 * every start with "failed to pin block". Instead the file is opened once without the
 * limit (DuckDB's default, a share of RAM), checkpointed, which folds the log into the
 * file, and closed; the normal open then has nothing large to replay.
 */
async function checkpointWithoutLimit(
  file: string,
  options: Record<string, string>,
  cause: Error,
): Promise<void> {
  // Before the logger exists (the database opens while the app is built): stderr.
  process.stderr.write(
    `docproc: warning: the database did not open within DUCKDB_MEMORY_LIMIT=` +
      `${options.memory_limit} (${cause.message.split('\n')[0]}); replaying its log ` +
      `without the limit and checkpointing\n`,
  );
  const unlimited = Object.fromEntries(
    Object.entries(options).filter(([name]) => name !== 'memory_limit'),
  );
  const instance = await openWithRetry(file, unlimited);
  try {
    const connection = await instance.connect();
    await connection.run('CHECKPOINT');
    connection.closeSync();
  } finally {
    instance.closeSync();
  }
}

/** The writer connection as seen inside a transaction. */
export class Transaction {
  private readonly afterCommit: (() => void)[] = [];

  constructor(readonly connection: DuckDBConnection) {}

  /**
   * Runs `effect` once the transaction has committed (never after a rollback): for
   * in-memory state that must follow the store, such as the live queue depth. `effect`
   * must be synchronous and must not throw; it runs before the write lock is released.
   */
  onCommit(effect: () => void): void {
    this.afterCommit.push(effect);
  }

  /** Called by DuckDbService.transaction after COMMIT. */
  committed(): void {
    for (const effect of this.afterCommit.splice(0)) effect();
  }

  async run(sql: string, params?: SqlParams): Promise<void> {
    await this.connection.run(sql, params);
  }

  async all<T = Row>(sql: string, params?: SqlParams): Promise<T[]> {
    const reader = await this.connection.runAndReadAll(sql, params);
    return reader.getRowObjectsJS() as T[];
  }
}
