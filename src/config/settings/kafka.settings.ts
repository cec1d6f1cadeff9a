import { bool, int, list, text } from '../setting.js';
import { KiB, MiB } from './shared.js';

/* Kafka mode of usage ingestion: brokers, topics, the consumer and its readiness. */

const DEFAULT_USAGE_TOPIC = 'docproc.usage.v1';

/**
 * A name Kafka accepts for a topic (letters, digits, `.`, `_`, `-`; not `.` or `..`): any
 * other stops the start here instead of a consumer retrying its creation for ever. The usage
 * topic keeps room for the dead-letter topic's `.dlq`.
 */
function topicName(maxLength: number) {
  return {
    regex: new RegExp(`^(?!\\.{1,2}$)[A-Za-z0-9._-]{1,${maxLength}}$`),
    message: `must be a Kafka topic name: up to ${maxLength} letters, digits, ".", "_" or "-"`,
  };
}

export const KAFKA_SETTINGS = {
  brokers: list(
    'KAFKA_BROKERS',
    {
      item: { regex: /^[^\s:]+:\d{1,5}$/, message: 'each broker must be host:port' },
      type: 'list of host:port',
    },
    'Kafka mode: usage events go through these brokers (topic, consumer group, dead-letter topic). Unset: the in-process bus (embedded mode).',
  ),
  clientId: text(
    'KAFKA_CLIENT_ID',
    { default: 'docproc' },
    'kafkajs client id (shows in broker logs and quotas).',
  ),
  usageTopic: text(
    'KAFKA_USAGE_TOPIC',
    { default: DEFAULT_USAGE_TOPIC, pattern: topicName(245) },
    'Topic of usage CloudEvents (structured JSON, key = orgId).',
  ),
  deadLetterTopic: text(
    'KAFKA_DLQ_TOPIC',
    {
      default: (env) => `${env.KAFKA_USAGE_TOPIC?.trim() || DEFAULT_USAGE_TOPIC}.dlq`,
      defaultText: '`$KAFKA_USAGE_TOPIC.dlq`',
      pattern: topicName(249),
    },
    'Refused events: original bytes and headers plus `docproc-dlq-reason` headers.',
  ),
  consumerGroup: text(
    'KAFKA_CONSUMER_GROUP',
    { default: 'docproc-usage-ingest' },
    'Consumer group of the usage ingestion.',
  ),
  consumerEnabled: bool(
    'KAFKA_CONSUMER_ENABLED',
    true,
    'Run the usage consumer in this process; only in the process that owns the DuckDB file.',
  ),
  createTopics: bool(
    'KAFKA_CREATE_TOPICS',
    true,
    'Create the usage and dead-letter topics at start when missing. Off: a missing one fails `/ready` at once, naming it and its setting.',
  ),
  topicPartitions: int(
    'KAFKA_TOPIC_PARTITIONS',
    { default: 3, min: 1, max: 1000 },
    'Partitions of topics created at start.',
  ),
  consumer: {
    minBytes: int(
      'KAFKA_FETCH_MIN_BYTES',
      { default: 64 * KiB, min: 1, max: 64 * MiB, unit: 'bytes' },
      'Fetch answers wait for this many bytes (or `KAFKA_FETCH_MAX_WAIT_MS`), so batches are not tiny.',
    ),
    maxBytes: int(
      'KAFKA_FETCH_MAX_BYTES',
      { default: 16 * MiB, min: KiB, max: 512 * MiB, unit: 'bytes' },
      'Largest fetch answer.',
    ),
    maxBytesPerPartition: int(
      'KAFKA_FETCH_MAX_BYTES_PER_PARTITION',
      { default: MiB, min: KiB, max: 512 * MiB, unit: 'bytes' },
      'Largest batch per partition (~5,000 events of ~200 bytes); larger batches hold more of a backlog in memory at once without draining it faster (docs/benchmarks.md, "Kafka ingestion within 512 MB by default"). Under a backlog the batches fetched while a write runs share the next write (up to 30,000 events in DuckDB, 90,000 in ClickHouse: docs/decisions/0481-*); at low rates batches stay small and are written at once (docs/benchmarks.md, "Kafka ingestion: overlapped fetch and write").',
    ),
    maxWaitTimeInMs: int(
      'KAFKA_FETCH_MAX_WAIT_MS',
      { default: 100, min: 0, max: 60_000, unit: 'ms' },
      'Longest a fetch waits for `KAFKA_FETCH_MIN_BYTES`: batch filling against latency.',
    ),
    partitionsConsumedConcurrently: int(
      'KAFKA_PARTITIONS_CONCURRENCY',
      { default: 3, min: 1, max: 64 },
      'Partition batches in flight at once; those waiting for the DuckDB writer share its next transaction (group commit).',
    ),
    sessionTimeoutMs: int(
      'KAFKA_SESSION_TIMEOUT_MS',
      { default: 30_000, min: 6_000, max: 300_000, unit: 'ms' },
      'Consumer group session time-out: how long the broker waits for heartbeats before rebalancing.',
    ),
  },
  lagIntervalMs: int(
    'KAFKA_LAG_INTERVAL_MS',
    { default: 5_000, min: 100, max: 600_000, unit: 'ms' },
    'How often consumer lag is measured against the high watermarks.',
  ),
  stallTimeoutMs: int(
    'KAFKA_STALL_TIMEOUT_MS',
    { default: 60_000, min: 500, max: 3_600_000, unit: 'ms' },
    '`/ready` fails when partitions have lag and no batch was written for this long; a consumer that also fetched nothing for this long while the broker answered is replaced by a new one.',
  ),
} as const;
