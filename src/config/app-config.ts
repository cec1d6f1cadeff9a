import path from 'node:path';
import type { CardinalityRule, NormalizerPolicy } from './usage.types.js';
import { loadProcessingConfig, ProcessingConfig } from './processing.config.js';
import { loadOperationsConfig, OperationsConfig } from './operations.config.js';
import { ConfigError, readBool, readEnum, readFloat, readInt } from './env-readers.js';

export { ConfigError, readBool, readEnum, readFloat, readInt } from './env-readers.js';

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseFile: string;
  /** DuckDB `checkpoint_threshold`: WAL size that triggers a checkpoint. */
  duckdbCheckpointThreshold: string;
  /** DuckDB's buffer pool limit; null keeps DuckDB's default (80 % of RAM). */
  duckdbMemoryLimit: string | null;
  logLevel: string;
  /** Public base address of this service, used in presigned and result URLs. */
  publicBaseUrl: string;
  kafka: KafkaConfig | null;
  /** Bearer token for the local admin endpoints the CLI talks to; generated per DATA_DIR when unset. */
  adminToken: string | null;
  /**
   * Spec "SkippableHTTPBearer": when true, processing requests without a key are accepted
   * and attributed to `defaultOrgId` (a present but invalid key is still refused).
   */
  authDisabled: boolean;
  /** The org keyless processing requests count against; set exactly when auth is disabled. */
  defaultOrgId: string | null;
  usage: UsageConfig;
  processing: ProcessingConfig;
  /**
   * Removed model versions kept pinnable from frozen snapshots (`FROZEN_MODEL_SNAPSHOTS`,
   * `family:version,...`). Spec: only on-prem or private-network deployments have them.
   */
  frozenModelSnapshots: { family: string; version: string }[];
  operations: OperationsConfig;
}

export interface UsageConfig {
  normalizer: NormalizerPolicy;
  cardinality: CardinalityRule;
  /** How often the narrow rollups are rewritten in org order; 0 turns it off. */
  rollupClusterIntervalMs: number;
  /** Bytes of export bodies the result cache keeps (`USAGE_EXPORT_CACHE_MB`); 0 turns it off. */
  exportCacheBytes: number;
  /** Read snapshots of the export's tables, for export replicas (docs/scaling.md). */
  snapshots: UsageSnapshotConfig;
}

export interface UsageSnapshotConfig {
  /** The writer publishes one this often (`USAGE_SNAPSHOT_INTERVAL_SEC`); 0: never. */
  intervalMs: number;
  /** Where they are published and where a replica reads them (`USAGE_SNAPSHOT_DIR`). */
  dir: string;
  /**
   * `DOCPROC_MODE=export-replica`: this process serves the usage export (and reads of the
   * account API) from the newest snapshot, read-only, instead of owning the DuckDB file.
   */
  replica: boolean;
  /** How often a replica looks for a newer snapshot. */
  pollMs: number;
}

export interface KafkaConfig {
  brokers: string[];
  clientId: string;
  usageTopic: string;
  deadLetterTopic: string;
  consumerGroup: string;
  /** Run the usage consumer in this process (it must be the one that owns the DuckDB file). */
  consumerEnabled: boolean;
  /** Create the usage and dead-letter topics at start-up when missing (with this many partitions). */
  createTopics: boolean;
  topicPartitions: number;
  consumer: KafkaConsumerTuning;
  /** How often consumer lag is measured against the broker's high watermarks. */
  lagIntervalMs: number;
  /** `/ready` fails when there is lag and no batch has been written for this long. */
  stallTimeoutMs: number;
}

export interface KafkaConsumerTuning {
  /** Fetch answers wait for this many bytes (or maxWaitTimeInMs), so batches are not tiny. */
  minBytes: number;
  maxBytes: number;
  maxBytesPerPartition: number;
  maxWaitTimeInMs: number;
  partitionsConsumedConcurrently: number;
  sessionTimeoutMs: number;
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function readByteSize(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+(\.\d+)?\s*(B|KB|MB|GB|KiB|MiB|GiB)$/i.test(raw)) {
    throw new ConfigError(name, `expected a size such as 256MB, got "${raw}"`);
  }
  return raw;
}

function readKafka(env: Env): KafkaConfig | null {
  const raw = env.KAFKA_BROKERS;
  if (raw === undefined || raw.trim() === '') return null;
  const brokers = raw
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  for (const broker of brokers) {
    if (!/^[^\s:]+:\d{1,5}$/.test(broker))
      throw new ConfigError('KAFKA_BROKERS', `"${broker}" is not host:port`);
  }
  const usageTopic = env.KAFKA_USAGE_TOPIC || 'docproc.usage.v1';
  const MB = 1024 * 1024;
  return {
    brokers,
    clientId: env.KAFKA_CLIENT_ID || 'docproc',
    usageTopic,
    deadLetterTopic: env.KAFKA_DLQ_TOPIC || `${usageTopic}.dlq`,
    consumerGroup: env.KAFKA_CONSUMER_GROUP || 'docproc-usage-ingest',
    consumerEnabled: readBool(env, 'KAFKA_CONSUMER_ENABLED', true),
    createTopics: readBool(env, 'KAFKA_CREATE_TOPICS', true),
    topicPartitions: readInt(env, 'KAFKA_TOPIC_PARTITIONS', 3, 1, 1000),
    consumer: {
      minBytes: readInt(env, 'KAFKA_FETCH_MIN_BYTES', 64 * 1024, 1, 64 * MB),
      maxBytes: readInt(env, 'KAFKA_FETCH_MAX_BYTES', 8 * MB, 1024, 512 * MB),
      maxBytesPerPartition: readInt(
        env,
        'KAFKA_FETCH_MAX_BYTES_PER_PARTITION',
        2 * MB,
        1024,
        512 * MB,
      ),
      maxWaitTimeInMs: readInt(env, 'KAFKA_FETCH_MAX_WAIT_MS', 100, 0, 60_000),
      partitionsConsumedConcurrently: readInt(env, 'KAFKA_PARTITIONS_CONCURRENCY', 3, 1, 64),
      sessionTimeoutMs: readInt(env, 'KAFKA_SESSION_TIMEOUT_MS', 30_000, 6_000, 300_000),
    },
    lagIntervalMs: readInt(env, 'KAFKA_LAG_INTERVAL_MS', 5_000, 100, 600_000),
    stallTimeoutMs: readInt(env, 'KAFKA_STALL_TIMEOUT_MS', 60_000, 500, 3_600_000),
  };
}

function readUsage(env: Env, dataDir: string): UsageConfig {
  return {
    normalizer: {
      maxFutureSkewMs: readInt(env, 'USAGE_MAX_FUTURE_SKEW_SEC', 300, 0, 86_400) * 1000,
      maxAgeMs: readInt(env, 'USAGE_MAX_EVENT_AGE_DAYS', 730, 1, 36_500) * 86_400_000,
    },
    cardinality: {
      maxDistinctValues: readInt(env, 'METADATA_KEY_MAX_DISTINCT', 1000, 2),
      minEventsForRatio: readInt(env, 'METADATA_KEY_MIN_EVENTS', 200, 1),
      maxDistinctRatio: readFloat(env, 'METADATA_KEY_MAX_DISTINCT_RATIO', 0.5, 0.01, 1),
    },
    rollupClusterIntervalMs:
      readInt(env, 'USAGE_ROLLUP_CLUSTER_INTERVAL_MIN', 60, 0, 7 * 24 * 60) * 60_000,
    exportCacheBytes: readInt(env, 'USAGE_EXPORT_CACHE_MB', 64, 0, 16_384) * 2 ** 20,
    snapshots: {
      intervalMs: readInt(env, 'USAGE_SNAPSHOT_INTERVAL_SEC', 0, 0, 86_400) * 1000,
      dir: path.resolve(env.USAGE_SNAPSHOT_DIR || path.join(dataDir, 'usage-snapshots')),
      replica:
        readEnum(env, 'DOCPROC_MODE', ['server', 'export-replica'], 'server') === 'export-replica',
      pollMs: 1_000,
    },
  };
}

function readFrozenSnapshots(env: Env): { family: string; version: string }[] {
  const raw = env.FROZEN_MODEL_SNAPSHOTS;
  if (raw === undefined || raw.trim() === '') return [];
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const match = /^([a-z_]+):([A-Za-z0-9._-]+)$/.exec(entry);
      if (!match) {
        throw new ConfigError('FROZEN_MODEL_SNAPSHOTS', `"${entry}" is not family:version`);
      }
      return { family: match[1], version: match[2] };
    });
}

/** Reads and validates the whole environment once; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): AppConfig {
  const port = readInt(env, 'PORT', 3000, 0, 65535);
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const host = env.HOST || '0.0.0.0';
  const logLevel = readEnum(env, 'LOG_LEVEL', LOG_LEVELS, 'info');
  const publicBaseUrl = (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicBaseUrl);
  } catch {
    throw new ConfigError('PUBLIC_BASE_URL', `"${publicBaseUrl}" is not an absolute URL`);
  }
  const adminToken = env.ADMIN_TOKEN || null;
  if (adminToken !== null && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN', 'must be at least 16 characters');
  }
  const authDisabled = readBool(env, 'AUTH_DISABLED', false);
  const defaultOrgId = env.AUTH_DEFAULT_ORG_ID?.trim() || null;
  if (authDisabled && defaultOrgId === null) {
    throw new ConfigError(
      'AUTH_DEFAULT_ORG_ID',
      'required when AUTH_DISABLED=true (the org that keyless requests are attributed to)',
    );
  }
  if (defaultOrgId !== null && !/^[A-Za-z0-9_-]{1,64}$/.test(defaultOrgId)) {
    throw new ConfigError(
      'AUTH_DEFAULT_ORG_ID',
      `expected 1 to 64 letters, digits, "_" or "-", got "${defaultOrgId}"`,
    );
  }
  const processing = loadProcessingConfig(env);
  const operations = loadOperationsConfig(env);
  // The spec's grace period setting bounds the database-queue workers' shutdown unless the
  // finer WORKER_SHUTDOWN_GRACE_MS is given.
  if (!env.WORKER_SHUTDOWN_GRACE_MS) {
    processing.workerShutdownGraceMs = operations.terminationGraceSeconds * 1000;
  }
  return {
    port,
    host,
    dataDir,
    databaseFile: env.DATABASE_FILE
      ? path.resolve(env.DATABASE_FILE)
      : path.join(dataDir, 'docproc.duckdb'),
    duckdbCheckpointThreshold: readByteSize(env, 'DUCKDB_CHECKPOINT_THRESHOLD', '64MB'),
    duckdbMemoryLimit: env.DUCKDB_MEMORY_LIMIT?.trim()
      ? readByteSize(env, 'DUCKDB_MEMORY_LIMIT', '')
      : null,
    logLevel,
    publicBaseUrl,
    kafka: readKafka(env),
    adminToken,
    authDisabled,
    defaultOrgId: authDisabled ? defaultOrgId : null,
    usage: readUsage(env, dataDir),
    processing,
    operations,
    frozenModelSnapshots: readFrozenSnapshots(env),
  };
}
