import type { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api';
import { Mutex } from '../common/mutex.js';
import type { Row, SqlParams } from './duckdb.service.js';

const MAX_PREPARED_STATEMENTS = 64;

/**
 * A read connection that keeps its recently used statements prepared. The request path
 * runs a handful of fixed SQL texts (auth, membership, the export shapes); preparing
 * each again costs two extra trips through the libuv thread pool and DuckDB's planner
 * per request. Statements on one connection run one at a time anyway, so the mutex that
 * keeps a statement's bind and execute together costs no parallelism.
 *
 * Re-executing a statement prepared before later writes is only correct because the
 * instance runs without DuckDB's statistics-dependent optimizers (see DuckDbService).
 */
export class ReaderConnection {
  private readonly prepared = new Map<string, DuckDBPreparedStatement>();
  private readonly lock = new Mutex();
  private inFlight = 0;

  constructor(private readonly connection: DuckDBConnection) {}

  /** Statements running or waiting on this connection. */
  get pending(): number {
    return this.inFlight;
  }

  async all<T = Row>(sql: string, params?: SqlParams): Promise<T[]> {
    this.inFlight++;
    try {
      return await this.lock.runExclusive(async () => {
        const statement = await this.statement(sql);
        if (params) statement.bind(params);
        else statement.clearBindings();
        const reader = await statement.runAndReadAll();
        return reader.getRowObjectsJS() as T[];
      });
    } finally {
      this.inFlight--;
    }
  }

  close(): void {
    for (const statement of this.prepared.values()) statement.destroySync();
    this.prepared.clear();
    this.connection.closeSync();
  }

  private async statement(sql: string): Promise<DuckDBPreparedStatement> {
    const cached = this.prepared.get(sql);
    if (cached) {
      // Re-inserting keeps the map in least-recently-used-first order.
      this.prepared.delete(sql);
      this.prepared.set(sql, cached);
      return cached;
    }
    const statement = await this.connection.prepare(sql);
    if (this.prepared.size >= MAX_PREPARED_STATEMENTS) {
      const [oldestSql, oldest] = this.prepared.entries().next().value as [
        string,
        DuckDBPreparedStatement,
      ];
      oldest.destroySync();
      this.prepared.delete(oldestSql);
    }
    this.prepared.set(sql, statement);
    return statement;
  }
}

/**
 * The connection with the fewest statements running or waiting, the first such one from
 * `start` on (callers rotate `start`, so idle connections share the work). Taking turns
 * blindly queued a request behind a background poll on one connection while the other
 * stood idle: a millisecond or two added to a 1-ms export now and then, its p99.
 */
export function leastBusy<T extends { readonly pending: number }>(
  readers: readonly T[],
  start: number,
): T {
  let best = readers[start % readers.length];
  for (let i = 1; i < readers.length; i++) {
    const candidate = readers[(start + i) % readers.length];
    if (candidate.pending < best.pending) best = candidate;
  }
  return best;
}
