import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type * as ClickHouseClientPackage from '@clickhouse/client';
import type { ClickHouseClient } from '@clickhouse/client';
import { onFirstUse } from '../../common/on-first-use.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { bindParams, type ClickHouseParams } from './clickhouse-literals.js';

/** The client package, loaded by the first statement (never, with the DuckDB store). */
const clickhouseClient = onFirstUse<typeof ClickHouseClientPackage>('@clickhouse/client');

/** One statement as sent: its session and, for an insert, the rows sent with it. */
export interface SentStatement {
  statement: string;
  sessionId?: string;
  data?: string;
}

/**
 * Hears every statement before it is sent (tests check them on a current engine,
 * docs/scaling.md, or hold one back to open a race on purpose): the statement waits for
 * the listener's promise.
 */
export type StatementListener = (sent: SentStatement) => void | Promise<void>;

interface CallOptions {
  /** Statements of one session share its temporary tables (one write's staging). */
  sessionId?: string;
  /** Another server than CLICKHOUSE_URL's (a shard, for its own tables' DDL). */
  url?: string;
  /** Settings of this statement (e.g. a synchronous insert into a Distributed table). */
  settings?: Record<string, string | number>;
  /** The id the server lists the statement under in `system.processes` while it runs. */
  queryId?: string;
}

/**
 * The one connection to ClickHouse's HTTP interface (the official `@clickhouse/client`),
 * used only by the usage store's ClickHouse repositories. Written for the oldest server
 * the tests run (Debian's 18.16): no query parameters (bound by bindParams), no HTTP
 * compression negotiation, 64-bit integers read as quoted JSON strings.
 */
@Injectable()
export class ClickHouseService implements OnApplicationShutdown {
  private readonly logger = new Logger(ClickHouseService.name);
  private client: ClickHouseClient | null = null;
  private readonly shardClients = new Map<string, ClickHouseClient>();
  private readonly listeners = new Set<StatementListener>();
  readonly database: string;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.database = config.usage.store.clickhouseDatabase;
  }

  /** CLICKHOUSE_CLUSTER, or null on one server. */
  get cluster(): string | null {
    return this.config.usage.store.clickhouseCluster;
  }

  get shardUrls(): string[] {
    return this.config.usage.store.clickhouseShardUrls;
  }

  private connection(url?: string): ClickHouseClient {
    if (url !== undefined) {
      let shard = this.shardClients.get(url);
      if (!shard) this.shardClients.set(url, (shard = this.newClient(url)));
      return shard;
    }
    if (this.client) return this.client;
    const configured = this.config.usage.store.clickhouseUrl;
    if (configured === null) throw new Error('CLICKHOUSE_URL is not set');
    this.client = this.newClient(configured);
    return this.client;
  }

  private newClient(url: string): ClickHouseClient {
    const { createClient, ClickHouseLogLevel } = clickhouseClient();
    return createClient({
      url,
      // 18.x answers gzip only when asked with its own setting; plain HTTP on loopback.
      compression: { request: false, response: false },
      request_timeout: 120_000,
      max_open_connections: 4,
      // Failures reach the caller as errors and are logged there, once.
      log: { level: ClickHouseLogLevel.OFF },
    });
  }

  /** Calls `listener` with each statement as sent, until the returned function is called. */
  onStatement(listener: StatementListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async bound(
    sql: string,
    params?: ClickHouseParams,
    options: CallOptions = {},
    data?: string,
  ): Promise<string> {
    const statement = bindParams(sql, params);
    for (const listener of this.listeners) {
      await listener({ statement, sessionId: options.sessionId, data });
    }
    return statement;
  }

  /** A statement without a result (DDL, INSERT ... SELECT). */
  async command(sql: string, params?: ClickHouseParams, options: CallOptions = {}): Promise<void> {
    await this.connection(options.url).command({
      query: await this.bound(sql, params, options),
      session_id: options.sessionId,
      clickhouse_settings: options.settings,
      query_id: options.queryId,
    });
  }

  /** The rows of a SELECT, as JSON objects (UInt64 and Decimal columns arrive as text). */
  async rows<T>(sql: string, params?: ClickHouseParams, options: CallOptions = {}): Promise<T[]> {
    const result = await this.connection(options.url).query({
      query: await this.bound(sql, params, options),
      format: 'JSONEachRow',
      session_id: options.sessionId,
    });
    return result.json<T>();
  }

  /** The rows of a SELECT in chunks as the server sends them. */
  async *stream<T>(sql: string, params?: ClickHouseParams): AsyncGenerator<T[]> {
    const result = await this.connection().query({
      query: await this.bound(sql, params),
      format: 'JSONEachRow',
    });
    for await (const rows of result.stream<T>()) {
      yield rows.map((row) => row.json<T>());
    }
  }

  /**
   * Inserts rows given as `TabSeparated` text: whole lines, in UTF-8 chunks. A client that dies
   * mid-request may still leave a prefix of them in the table (18.x inserts what it read), so
   * callers insert only into a session's staging table and move rows server-side.
   */
  async insertTabSeparated(
    table: string,
    chunks: readonly Buffer[],
    options: CallOptions = {},
  ): Promise<void> {
    // The text is made only for a statement listener (the chDB replay spec).
    const data = this.listeners.size > 0 ? Buffer.concat(chunks).toString('utf8') : undefined;
    const statement = await this.bound(
      `INSERT INTO ${table} FORMAT TabSeparated`,
      {},
      options,
      data,
    );
    const result = await this.connection().exec({
      query: statement,
      values: Readable.from(chunks),
      session_id: options.sessionId,
    });
    result.stream.resume();
    await finished(result.stream);
  }

  async onApplicationShutdown(): Promise<void> {
    const clients = [this.client, ...this.shardClients.values()];
    this.client = null;
    this.shardClients.clear();
    for (const client of clients) {
      await client?.close().catch((error: unknown) => this.logger.warn(String(error)));
    }
  }
}
