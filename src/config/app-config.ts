import type { OperationsConfig } from './operations.config.js';
import type { ProcessingConfig } from './processing.config.js';
import { ALL_ROLLOUT_KEYS, rolloutEnvName } from './rollout-keys.js';
import { type Env, resolve, type Resolved } from './setting.js';
import { ConfigError } from './config-error.js';
import {
  KAFKA_SETTINGS,
  OPERATIONS_SETTINGS,
  PROCESSING_SETTINGS,
  SERVER_SETTINGS,
  USAGE_SETTINGS,
} from './settings.schema.js';

/** The usage plane's settings: event normalization, metadata-key cardinality, rollups. */
export type UsageConfig = Resolved<typeof USAGE_SETTINGS>;
/** Kafka mode (KAFKA_BROKERS set). */
export type KafkaConfig = Resolved<typeof KAFKA_SETTINGS>;

/**
 * The whole configuration, read from the environment once at start-up. Every field comes
 * from `settings.schema.ts`, where each variable has its type, default and meaning.
 */
export interface AppConfig extends Resolved<typeof SERVER_SETTINGS> {
  /** Null in embedded mode (KAFKA_BROKERS unset). */
  kafka: KafkaConfig | null;
  /** Set exactly when auth is disabled. */
  defaultOrgId: string | null;
  usage: UsageConfig;
  processing: ProcessingConfig;
  operations: OperationsConfig;
}

const SCHEMA = {
  server: SERVER_SETTINGS,
  kafka: KAFKA_SETTINGS,
  usage: USAGE_SETTINGS,
  processing: PROCESSING_SETTINGS,
  operations: OPERATIONS_SETTINGS,
};

/**
 * Reads and validates the whole environment once; throws ConfigError naming every bad
 * variable (the process refuses to start).
 */
export function loadConfig(env: Env = process.env): AppConfig {
  const { server, kafka, usage, processing, operations } = resolve(SCHEMA, env);
  if (server.authDisabled && server.defaultOrgId === null) {
    throw new ConfigError(
      'AUTH_DEFAULT_ORG_ID',
      'required when AUTH_DISABLED=true (the org that keyless requests are attributed to)',
    );
  }
  if (usage.store.kind === 'clickhouse' && usage.store.clickhouseUrl === null) {
    throw new ConfigError('CLICKHOUSE_URL', 'required when USAGE_STORE=clickhouse');
  }
  if (usage.store.clickhouseCluster !== null && usage.store.clickhouseShardUrls.length === 0) {
    throw new ConfigError('CLICKHOUSE_SHARD_URLS', 'required when CLICKHOUSE_CLUSTER is set');
  }
  const { url: redisUrl, ...redis } = operations.redis;
  const routed = ALL_ROLLOUT_KEYS.filter((key) => operations.rollout[key] > 0);
  if (redisUrl === null && routed.length > 0) {
    throw new ConfigError(
      rolloutEnvName(routed[0]),
      'a rollout ratio above 0 needs the new queue system: set REDIS_URL',
    );
  }
  return {
    ...server,
    publicBaseUrl: server.publicBaseUrl.replace(/\/+$/, ''),
    defaultOrgId: server.authDisabled ? server.defaultOrgId : null,
    kafka: kafka.brokers.length > 0 ? kafka : null,
    usage,
    processing,
    operations: { ...operations, redis: redisUrl === null ? null : { ...redis, url: redisUrl } },
  };
}
