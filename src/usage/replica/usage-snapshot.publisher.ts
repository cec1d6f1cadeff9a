import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { DuckDbService } from '../../database/duckdb.service.js';
import { SnapshotFiles } from '../../database/snapshot-files.js';
import { currentQuarterHourSql, READ_ROLLED_BATCH_ID } from '../core/quarter-hour-rollups.js';

/**
 * What an export replica reads, with the order that keeps one org's rows together (zone
 * maps). Not the events: a snapshot is the rollups (bounded by days x dimension values)
 * and the account tables, so it costs a fraction of the store to copy.
 */
export const SNAPSHOT_TABLES: {
  table: string;
  order?: string;
  /** The rows copied, given the quarter-hour rollups' watermark read in the same cut. */
  rows?: (rolledBatchId: string) => string;
}[] = [
  { table: 'schema_migrations' },
  { table: 'organizations' },
  { table: 'users' },
  { table: 'memberships' },
  { table: 'account_api_keys' },
  { table: 'processing_api_keys' },
  { table: 'account_secrets' },
  { table: 'org_metadata_keys' },
  { table: 'metadata_key_stats' },
  { table: 'usage_daily', order: 'org_id, day' },
  { table: 'usage_daily_metadata', order: 'org_id, meta_key, day' },
  { table: 'usage_daily_dimension', order: 'org_key, dimension, day, value' },
  { table: 'usage_daily_metadata_value', order: 'org_key, meta_key, day, meta_value' },
  // With the events past the roll-up's watermark added, and the events table empty: the
  // export statements read both, and a replica has them all in the rollups.
  {
    table: 'usage_quarter_hour',
    order: 'org_key, quarter',
    rows: (rolled) => currentQuarterHourSql('usage_quarter_hour', rolled),
  },
  {
    table: 'usage_quarter_hour_metadata',
    order: 'org_key, meta_key, quarter',
    rows: (rolled) => currentQuarterHourSql('usage_quarter_hour_metadata', rolled),
  },
  {
    table: 'usage_quarter_hour_dimension',
    order: 'org_key, dimension, quarter',
    rows: (rolled) => currentQuarterHourSql('usage_quarter_hour_dimension', rolled),
  },
  {
    table: 'usage_quarter_hour_metadata_value',
    order: 'org_key, meta_key, quarter',
    rows: (rolled) => currentQuarterHourSql('usage_quarter_hour_metadata_value', rolled),
  },
  { table: 'usage_quarter_hour_watermark' },
  { table: 'usage_events', rows: () => 'SELECT * FROM main.usage_events WHERE false' },
  {
    table: 'usage_metadata_combinations',
    rows: () => 'SELECT * FROM main.usage_metadata_combinations WHERE false',
  },
];

/** File name prefix of the usage snapshots (replicas follow files named so). */
export const USAGE_SNAPSHOT_PREFIX = 'usage';

/** Snapshots kept: a replica may still be reading the one before the newest. */
const KEEP = 3;

/**
 * The writer's half of export replicas: every `USAGE_SNAPSHOT_INTERVAL_SEC` it copies the
 * export's tables, in one read transaction (a consistent cut), into a new DuckDB file in
 * `USAGE_SNAPSHOT_DIR` and makes it current. It reads on a connection of its own, so
 * ingestion is not held up.
 */
@Injectable()
export class UsageSnapshotPublisher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(UsageSnapshotPublisher.name);
  private readonly files: SnapshotFiles;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private seq = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: DuckDbService,
  ) {
    this.files = new SnapshotFiles(config.usage.snapshots.dir, USAGE_SNAPSHOT_PREFIX);
  }

  onApplicationBootstrap(): void {
    const { intervalMs, mode } = this.config.usage.snapshots;
    if (intervalMs === 0 || mode === 'export-replica') return;
    this.files.removeTemporaryFiles();
    const tick = () => {
      this.running ??= this.publish()
        .then(() => undefined)
        .catch((error: unknown) =>
          this.logger.error(`usage snapshot not published: ${String(error)}`),
        )
        .finally(() => {
          this.running = null;
        });
    };
    tick();
    this.timer = setInterval(tick, intervalMs);
    this.timer.unref();
  }

  /** Writes and publishes one snapshot; returns its name. */
  async publish(): Promise<string> {
    const name = this.files.nextName(Date.now(), this.seq++);
    const target = this.files.temporaryPath(name).replaceAll("'", "''");
    const started = Date.now();
    await this.db.withConnection(async (connection) => {
      await connection.run(`ATTACH '${target}' AS usage_snapshot`);
      try {
        await connection.run('BEGIN TRANSACTION');
        const [{ rolled }] = (
          await connection.runAndReadAll(READ_ROLLED_BATCH_ID)
        ).getRowObjectsJS() as { rolled: string }[];
        for (const { table, order, rows } of SNAPSHOT_TABLES) {
          const source = rows ? rows(rolled) : `SELECT * FROM main.${table}`;
          await connection.run(
            `CREATE TABLE usage_snapshot.${table} AS SELECT * FROM (${source})${order ? ` ORDER BY ${order}` : ''}`,
          );
        }
        await connection.run('COMMIT');
      } catch (error) {
        await connection.run('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        await connection.run('DETACH usage_snapshot');
      }
    });
    this.files.publish(name, KEEP);
    this.logger.debug(`usage snapshot ${name} published in ${Date.now() - started} ms`);
    return name;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
