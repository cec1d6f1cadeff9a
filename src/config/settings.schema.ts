import path from 'node:path';
import { DEFAULT_DATA_DIR, dataDirOf } from './data-dir.js';
import { DEFAULT_WORKER_STATE_FILE, QUEUE_FULL_RETRY_AFTER_SECONDS } from './operations.config.js';
import { DEFAULT_DOCUMENT_LIMITS } from './processing.config.js';
import { ALL_ROLLOUT_KEYS, type RolloutKey, rolloutEnvName } from './rollout-keys.js';
import {
  bool,
  byteSize,
  type Env,
  filePath,
  fixed,
  float,
  int,
  list,
  oneOf,
  optionalByteSize,
  optionalInt,
  optionalText,
  type Setting,
  text,
} from './setting.js';

/*
 * Every environment variable docproc reads, one entry each: the tree's shape is the shape of
 * the configuration object (`AppConfig`), so adding a setting is one line here.
 * `docs/configuration.md` is generated from this file (`npm run docs:config`).
 */

const KiB = 1024;
const MiB = 1024 * KiB;
const DEFAULT_USAGE_TOPIC = 'docproc.usage.v1';
const ORG_ID = {
  regex: /^[A-Za-z0-9_-]{1,64}$/,
  message: 'must be 1 to 64 letters, digits, "_" or "-"',
};

/** The numeric value of a variable another default depends on (its own setting validates it). */
function numberOr(env: Env, name: string, fallback: number): number {
  const value = Number(env[name]);
  return env[name]?.trim() && Number.isFinite(value) ? value : fallback;
}

export const SERVER_SETTINGS = {
  port: int('PORT', { default: 3000, min: 0, max: 65535 }, 'TCP port of the HTTP server.'),
  host: text(
    'HOST',
    { default: '0.0.0.0' },
    'Address the HTTP server listens on (`127.0.0.1` keeps it to this machine).',
  ),
  dataDir: filePath(
    'DATA_DIR',
    { default: DEFAULT_DATA_DIR, defaultText: `\`${DEFAULT_DATA_DIR}\``, type: 'directory' },
    'Where the DuckDB file, uploaded files (`blobs/`) and the admin endpoint file live. The admin CLI uses the same variable.',
  ),
  databaseFile: filePath(
    'DATABASE_FILE',
    {
      default: (env) => path.join(dataDirOf(env), 'docproc.duckdb'),
      defaultText: '`$DATA_DIR/docproc.duckdb`',
    },
    'The DuckDB database file (one read-write process per file).',
  ),
  duckdbCheckpointThreshold: byteSize(
    'DUCKDB_CHECKPOINT_THRESHOLD',
    '64MB',
    "WAL size between DuckDB checkpoints (DuckDB's `checkpoint_threshold`).",
  ),
  duckdbMemoryLimit: optionalByteSize(
    'DUCKDB_MEMORY_LIMIT',
    "DuckDB's (80 % of RAM)",
    'Cap on DuckDB\'s buffer pool; beyond it DuckDB spills to disk or fails the statement. Keep it well above the usage dedupe index (~51 bytes per stored event; docs/operations.md, "Memory").',
  ),
  logLevel: oneOf(
    'LOG_LEVEL',
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    'info',
    'Level of the JSON (pino) log on stdout.',
  ),
  publicBaseUrl: text(
    'PUBLIC_BASE_URL',
    {
      default: (env) => `http://localhost:${numberOr(env, 'PORT', 3000)}`,
      defaultText: '`http://localhost:$PORT`',
      pattern: {
        regex: /^https?:\/\/[^\s/]+(\/\S*)?$/,
        message: 'must be an absolute http(s) URL',
      },
      type: 'URL',
    },
    'Address clients reach this service at; used in presigned upload URLs and `force_url_result` links.',
  ),
  adminToken: optionalText(
    'ADMIN_TOKEN',
    {
      pattern: { regex: /^.{16,}$/, message: 'must be at least 16 characters' },
      defaultText: 'generated per `DATA_DIR`',
    },
    'Bearer token of the local admin endpoint the CLI talks to (written to `DATA_DIR/admin.json`, mode 0600).',
  ),
  authDisabled: bool(
    'AUTH_DISABLED',
    false,
    'Trusted single-tenant installs: processing requests without a key are accepted and billed to `AUTH_DEFAULT_ORG_ID` (a key that is sent must still be valid). The dashboard API always needs a key.',
  ),
  defaultOrgId: optionalText(
    'AUTH_DEFAULT_ORG_ID',
    { pattern: ORG_ID, type: 'organization id' },
    'The organization keyless requests are billed to; required when `AUTH_DISABLED=true`, created at start if missing.',
  ),
  frozenModelSnapshots: list(
    'FROZEN_MODEL_SNAPSHOTS',
    {
      item: { regex: /^[a-z_]+:[A-Za-z0-9._-]+$/, message: 'each entry must be family:version' },
      type: 'list of family:version',
      map: (entry) => {
        const [family, version] = entry.split(':');
        return { family, version };
      },
    },
    'Removed model versions kept pinnable from frozen snapshots (on-prem and private-network deployments only), e.g. `layout_model:layout-v2`.',
  ),
} as const;

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
    { default: DEFAULT_USAGE_TOPIC },
    'Topic of usage CloudEvents (structured JSON, key = orgId).',
  ),
  deadLetterTopic: text(
    'KAFKA_DLQ_TOPIC',
    {
      default: (env) => `${env.KAFKA_USAGE_TOPIC?.trim() || DEFAULT_USAGE_TOPIC}.dlq`,
      defaultText: '`$KAFKA_USAGE_TOPIC.dlq`',
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
    'Create the usage and dead-letter topics at start when missing.',
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
      { default: 8 * MiB, min: KiB, max: 512 * MiB, unit: 'bytes' },
      'Largest fetch answer.',
    ),
    maxBytesPerPartition: int(
      'KAFKA_FETCH_MAX_BYTES_PER_PARTITION',
      { default: 2 * MiB, min: KiB, max: 512 * MiB, unit: 'bytes' },
      'Largest batch per partition (= one DuckDB transaction); 4 MiB gave ~15 % more throughput for a higher p99 produce-to-queryable (docs/benchmarks.md).',
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
    '`/ready` fails when partitions have lag and no batch was written for this long.',
  ),
} as const;

export const USAGE_SETTINGS = {
  normalizer: {
    maxFutureSkewMs: int(
      'USAGE_MAX_FUTURE_SKEW_SEC',
      { default: 300, min: 0, max: 86_400, unit: 'seconds', scale: 1000 },
      'Usage events stamped further than this in the future are refused (clock skew).',
    ),
    maxAgeMs: int(
      'USAGE_MAX_EVENT_AGE_DAYS',
      { default: 730, min: 1, max: 36_500, unit: 'days', scale: 86_400_000 },
      'Usage events older than this are refused: they would rewrite closed finance periods.',
    ),
  },
  cardinality: {
    maxDistinctValues: int(
      'METADATA_KEY_MAX_DISTINCT',
      { default: 1000, min: 2 },
      'A metadata key with this many distinct values is identifier-like: it cannot be enabled for grouping.',
    ),
    minEventsForRatio: int(
      'METADATA_KEY_MIN_EVENTS',
      { default: 200, min: 1 },
      'Events a metadata key needs before `METADATA_KEY_MAX_DISTINCT_RATIO` applies.',
    ),
    maxDistinctRatio: float(
      'METADATA_KEY_MAX_DISTINCT_RATIO',
      { default: 0.5, min: 0.01, max: 1 },
      'A key whose distinct values per event exceed this ratio is identifier-like.',
    ),
  },
  rollupClusterIntervalMs: int(
    'USAGE_ROLLUP_CLUSTER_INTERVAL_MIN',
    { default: 60, min: 0, max: 7 * 24 * 60, unit: 'minutes', scale: 60_000 },
    'How often the narrow usage rollups are rewritten in org order; 0 turns it off.',
  ),
  exportCacheBytes: int(
    'USAGE_EXPORT_CACHE_MB',
    { default: 64, min: 0, max: 16_384, unit: 'MiB', scale: MiB },
    "Export answers kept per (org, query) until that org's next ingested write; 0 turns the result cache off.",
  ),
  /** Read snapshots of the export's tables, for export replicas (docs/scaling.md). */
  snapshots: {
    intervalMs: int(
      'USAGE_SNAPSHOT_INTERVAL_SEC',
      { default: 0, min: 0, max: 86_400, unit: 'seconds', scale: 1000 },
      'The writer publishes a read snapshot of what the usage export reads this often, for export replicas; 0 never.',
    ),
    dir: filePath(
      'USAGE_SNAPSHOT_DIR',
      {
        default: (env) => path.join(env.DATA_DIR?.trim() || './data', 'usage-snapshots'),
        defaultText: '`$DATA_DIR/usage-snapshots`',
        type: 'directory',
      },
      'Where the writer publishes usage snapshots and where an export replica reads them.',
    ),
    mode: oneOf(
      'DOCPROC_MODE',
      ['server', 'export-replica'],
      'server',
      '`export-replica`: serve the usage export read-only from the newest snapshot in `USAGE_SNAPSHOT_DIR` instead of owning the DuckDB file (docs/operations.md, "Export replicas").',
    ),
    pollMs: fixed(1_000),
  },
} as const;

export const PROCESSING_SETTINGS = {
  maxUploadBytes: int(
    'MAX_UPLOAD_BYTES',
    { default: 100 * MiB, min: 1, unit: 'bytes' },
    'Largest upload or fetched input.',
  ),
  fetchTimeoutMs: int(
    'FETCH_TIMEOUT_MS',
    { default: 30_000, min: 100, unit: 'ms' },
    'Time limit of fetching a URL input.',
  ),
  fetchAllowHosts: list(
    'FETCH_ALLOW_HOSTS',
    {
      item: { regex: /^[^\s/]+$/, message: 'each entry must be a host name or IP' },
      type: 'list of host names or IPs',
      lowercase: true,
    },
    'Private or loopback hosts that URL inputs and webhooks may reach although the SSRF guard blocks private addresses, e.g. `127.0.0.1,localhost` for a webhook receiver on your machine. Without it, a webhook to a local receiver is refused.',
  ),
  fetchAllowPrivate: bool(
    'FETCH_ALLOW_PRIVATE',
    false,
    'Turns the SSRF guard off entirely (self-hosted installs fetching from their own network).',
  ),
  presignTtlSeconds: int(
    'PRESIGN_TTL_SECONDS',
    { default: 3600, min: 1, unit: 'seconds' },
    'How long a presigned upload URL stays valid.',
  ),
  resultUrlTtlSeconds: int(
    'RESULT_URL_TTL_SECONDS',
    { default: 3600, min: 1, unit: 'seconds' },
    'How long a `force_url_result` link stays valid.',
  ),
  resultRetentionSeconds: int(
    'JOB_RESULT_RETENTION_SECONDS',
    { default: 7 * 24 * 3600, min: 0, unit: 'seconds' },
    'Job results are purged this long after completion unless `persist_results`; 0 keeps them.',
  ),
  jobMaxAttempts: int(
    'JOB_MAX_ATTEMPTS',
    { default: 3, min: 1, max: 100 },
    'Attempts of a job whose worker died mid-run, before it is Failed.',
  ),
  cpuWorkerConcurrency: int(
    'CPU_WORKER_CONCURRENCY',
    { default: 2, min: 1, max: 256 },
    'Worker threads per document pool, and database-queue cpu loops of the `worker` kind.',
  ),
  cpuWorkerWarmThreads: int(
    'CPU_WORKER_WARM_THREADS',
    { default: 1, min: 0, max: 256 },
    'Threads each pool keeps loaded while idle (~100 MB each, 1-2 s to start); others start on demand and leave after a minute idle.',
  ),
  ioWorkerConcurrency: int(
    'IO_WORKER_CONCURRENCY',
    { default: 8, min: 1, max: 1024 },
    'Database-queue io loops (webhook deliveries).',
  ),
  workerShutdownGraceMs: int(
    'WORKER_SHUTDOWN_GRACE_MS',
    {
      default: (env) => numberOr(env, 'TERMINATION_GRACE_PERIOD_SECONDS', 30) * 1000,
      defaultText: '`TERMINATION_GRACE_PERIOD_SECONDS` × 1000',
      min: 0,
      unit: 'ms',
    },
    'How long shutdown waits for tasks in flight; the rest stay `running` and are retried at start.',
  ),
  queuePollIntervalMs: int(
    'QUEUE_POLL_INTERVAL_MS',
    { default: 500, min: 10, unit: 'ms' },
    'Fallback poll interval of idle workers; enqueues wake them at once.',
  ),
  syncTimeoutMs: int(
    'SYNC_TIMEOUT_MS',
    { default: 300_000, min: 0, max: 86_400_000, unit: 'ms' },
    'How long a sync request waits for its job before answering 504 `SYNC_TIMEOUT` with the job id to poll (the job keeps running); 0: no limit.',
  ),
  webhookMaxAttempts: int(
    'WEBHOOK_MAX_ATTEMPTS',
    { default: 8, min: 1, max: 100 },
    'Delivery attempts of a webhook before it is given up.',
  ),
  webhookRetryBaseMs: int(
    'WEBHOOK_RETRY_BASE_MS',
    { default: 5_000, min: 1, unit: 'ms' },
    'First retry delay of a webhook (doubles each attempt).',
  ),
  webhookRetryMaxMs: int(
    'WEBHOOK_RETRY_MAX_MS',
    { default: 3_600_000, min: 1, unit: 'ms' },
    'Longest retry delay of a webhook.',
  ),
  webhookTimeoutMs: int(
    'WEBHOOK_TIMEOUT_MS',
    { default: 10_000, min: 100, unit: 'ms' },
    'Time limit of one webhook delivery attempt.',
  ),
  webhookResolveTimeoutMs: int(
    'WEBHOOK_RESOLVE_TIMEOUT_MS',
    { default: 2_000, min: 50, max: 4_000, unit: 'ms' },
    "Bound on resolving a webhook URL's host name when the request or endpoint is submitted.",
  ),
  jsonMaxDepth: int(
    'JSON_MAX_DEPTH',
    { default: 64, min: 4, max: 1_000 },
    'Deepest nesting of arrays and objects accepted in a JSON request body (422 `json_too_deep`).',
  ),
  asyncMetadataMaxDepth: int(
    'ASYNC_METADATA_MAX_DEPTH',
    { default: 16, min: 1, max: 1_000 },
    'Deepest nesting accepted inside `async.metadata` (422 `metadata_too_deep`).',
  ),
  outboxRelayIntervalMs: int(
    'OUTBOX_RELAY_INTERVAL_MS',
    { default: 1_000, min: 10, unit: 'ms' },
    'How often the usage outbox relay looks for events to send.',
  ),
  outboxRelayLingerMs: int(
    'OUTBOX_RELAY_LINGER_MS',
    { default: 200, min: 0, max: 60_000, unit: 'ms' },
    'How long the relay waits after a job finished, so completions close together share one usage write.',
  ),
  outboxBatchSize: int(
    'OUTBOX_BATCH_SIZE',
    { default: 500, min: 1, max: 10_000 },
    'Usage events the relay sends per batch.',
  ),
  documentLimits: {
    maxImagePixels: int(
      'MAX_IMAGE_PIXELS',
      { default: DEFAULT_DOCUMENT_LIMITS.maxImagePixels, min: 1 },
      'Width × height of an image, read from its header before decoding (a 600 dpi A4 scan is 35 megapixels).',
    ),
    maxPages: int(
      'MAX_DOCUMENT_PAGES',
      { default: DEFAULT_DOCUMENT_LIMITS.maxPages, min: 1 },
      "Pages of one request's documents together.",
    ),
    maxZipUncompressedBytes: int(
      'MAX_ZIP_UNCOMPRESSED_BYTES',
      { default: DEFAULT_DOCUMENT_LIMITS.maxZipUncompressedBytes, min: 1, unit: 'bytes' },
      'Inflated size of a zip-based document (DOCX), from its central directory.',
    ),
    maxZipCompressionRatio: int(
      'MAX_ZIP_COMPRESSION_RATIO',
      { default: DEFAULT_DOCUMENT_LIMITS.maxZipCompressionRatio, min: 1 },
      'Inflated size / stored size of a zip-based document (Word XML compresses 5-20×, zip bombs 1000× and more).',
    ),
    maxMarkupDepth: int(
      'MAX_MARKUP_DEPTH',
      { default: DEFAULT_DOCUMENT_LIMITS.maxMarkupDepth, min: 1 },
      "Element nesting depth of HTML and of a DOCX's XML.",
    ),
  },
  classifyLimits: {
    maxCriterionChars: int(
      'MAX_CRITERION_CHARS',
      { default: 2_000, min: 1 },
      'Characters of one classification criterion (422 beyond).',
    ),
    maxCategoryChars: int(
      'MAX_CATEGORY_CHARS',
      { default: 256, min: 1 },
      'Characters of one category name (422 beyond).',
    ),
    maxDocumentMetadataChars: int(
      'MAX_DOCUMENT_METADATA_CHARS',
      { default: 20_000, min: 1 },
      "Characters of a classify request's `document_metadata` (422 beyond).",
    ),
    maxCategories: int(
      'MAX_CATEGORIES',
      { default: 200, min: 1 },
      'Entries of `classification_schema` (422 beyond).',
    ),
  },
  executors: {
    heapMb: int(
      'EXECUTOR_HEAP_MB',
      { default: 1_024, min: 64, unit: 'MB' },
      'V8 old-space ceiling of each document executor process.',
    ),
    rssLimitMb: int(
      'EXECUTOR_RSS_LIMIT_MB',
      { default: 1_280, min: 64, unit: 'MB' },
      'Resident memory past which an executor is ended mid-task (the task fails, the service goes on).',
    ),
    recycleRssMb: int(
      'EXECUTOR_RECYCLE_RSS_MB',
      { default: 400, min: 64, unit: 'MB' },
      'An idle executor above this resident size is replaced after its task.',
    ),
    taskTimeLimitMs: int(
      'TASK_TIME_LIMIT_MS',
      { default: 120_000, min: 100, unit: 'ms' },
      'Wall-clock limit of one document task.',
    ),
    idleMs: int(
      'EXECUTOR_IDLE_MS',
      { default: 60_000, min: 1_000, unit: 'ms' },
      'An executor beyond the warm ones exits after this long idle.',
    ),
  },
} as const;

const ROLLOUT_SETTINGS = Object.fromEntries(
  ALL_ROLLOUT_KEYS.map((key) => [
    key,
    float(
      rolloutEnvName(key),
      { default: 0, min: 0, max: 1 },
      `Share of \`${key.replace('_trainable', '')}\`${key.endsWith('_trainable') ? ' (trainable)' : ''} requests routed to the Redis queue; above 0 needs \`REDIS_URL\`.`,
    ),
  ]),
) as Record<RolloutKey, Setting<number>>;

export const OPERATIONS_SETTINGS = {
  admission: {
    cpuMaxDepth: optionalInt(
      'CPU_MAX_QUEUE_DEPTH',
      { min: 1 },
      'Admission cap of the cpu queue (queued + running); past it 429 `QUEUE_FULL`. Unset: no cap.',
    ),
    ioMaxDepth: optionalInt(
      'IO_MAX_QUEUE_DEPTH',
      { min: 1 },
      'Admission cap of the io queue. Unset: no cap.',
    ),
    batchMaxDepth: optionalInt(
      'BATCH_MAX_QUEUE_DEPTH',
      { min: 1 },
      'Admission cap of the batch lane. Unset: no cap.',
    ),
    depthReadTimeoutMs: int(
      'QUEUE_DEPTH_READ_TIMEOUT_MS',
      { default: 1000, min: 1, max: 60_000, unit: 'ms' },
      'Time limit of reading a queue depth for the cap; on failure the queue counts as empty (fail open).',
    ),
    depthReconcileMs: int(
      'QUEUE_DEPTH_RECONCILE_MS',
      { default: 1000, min: 50, max: 60_000, unit: 'ms' },
      "How often the in-memory queue depth the cap reads is reconciled with the queues' stores.",
    ),
    depthStaleMs: int(
      'QUEUE_DEPTH_STALE_MS',
      { default: 30_000, min: 1000, max: 3_600_000, unit: 'ms' },
      'Past this age without a successful reconcile the depth counts as unknown: the cap fails open (and counts a failed read).',
    ),
    retryAfterSeconds: fixed(QUEUE_FULL_RETRY_AFTER_SECONDS),
  },
  liveness: {
    stateFile: filePath(
      'WORKER_STATE_FILE',
      { default: DEFAULT_WORKER_STATE_FILE, defaultText: `\`${DEFAULT_WORKER_STATE_FILE}\`` },
      'State file the worker watchdog writes and `scripts/worker-liveness.sh` judges.',
    ),
    intervalMs: int(
      'WORKER_WATCHDOG_INTERVAL_MS',
      { default: 5000, min: 10, max: 60_000, unit: 'ms' },
      'How often the watchdog writes the state file.',
    ),
    staleSec: int(
      'WORKER_LIVENESS_WATCHDOG_STALE_SEC',
      { default: 60, min: 1, unit: 'seconds' },
      'The liveness probe fails when the state file is older than this (event loop blocked or worker gone).',
    ),
    stuckThresholdSec: int(
      'WORKER_LIVENESS_STUCK_THRESHOLD_SEC',
      { default: 1800, min: 1, unit: 'seconds' },
      'The liveness probe fails when the oldest in-flight task is older than this.',
    ),
    probeEnabled: bool(
      'WORKER_LIVENESS_PROBE_ENABLED',
      true,
      'The liveness probe switch; the watchdog keeps warning either way.',
    ),
  },
  legacyWorkers: {
    enabled: bool(
      'WORKER_ENABLED',
      true,
      'Database-queue `worker` loops (every lane) in the process owning the DuckDB file.',
    ),
    priorityCount: int(
      'WORKER_PRIORITY_COUNT',
      { default: 0, min: 0, max: 256 },
      'Database-queue loops for the priority lane only.',
    ),
    gpuEnabled: bool(
      'GPU_WORKER_ENABLED',
      false,
      'Database-queue loops for deep work only (Deep Classify, deep extract, deep split).',
    ),
    gpuConcurrency: int(
      'GPU_WORKER_CONCURRENCY',
      { default: 1, min: 1, max: 64 },
      'Loops of the gpu worker.',
    ),
  },
  redis: {
    url: optionalText(
      'REDIS_URL',
      {
        pattern: { regex: /^rediss?:\/\/\S+$/, message: 'must be redis://host:port' },
        type: 'URL',
      },
      'The new queue system (BullMQ): `redis://host:port`. Unset: database queue only.',
    ),
    prefix: text(
      'REDIS_QUEUE_PREFIX',
      { default: 'docproc' },
      'BullMQ key prefix, so several installs (or test runs) can share one Redis.',
    ),
    cpuConcurrency: int(
      'REDIS_CPU_WORKER_CONCURRENCY',
      { default: 2, min: 1, max: 64 },
      'cpu jobs a Redis worker process runs at once.',
    ),
    ioConcurrency: int(
      'REDIS_IO_WORKER_CONCURRENCY',
      { default: 4, min: 1, max: 256 },
      'io jobs a Redis worker process runs at once.',
    ),
    enqueueTimeoutMs: int(
      'REDIS_ENQUEUE_TIMEOUT_MS',
      { default: 2000, min: 10, max: 60_000, unit: 'ms' },
      'Time limit of one Redis enqueue; past it the request falls back to the database queue (or 503 `QUEUE_UNAVAILABLE`).',
    ),
    reconcileIntervalMs: int(
      'REDIS_RECONCILE_INTERVAL_MS',
      { default: 30_000, min: 100, max: 3_600_000, unit: 'ms' },
      'How often the API process looks for dispatches Redis lost or gave up on.',
    ),
    lockMs: int(
      'REDIS_WORKER_LOCK_MS',
      { default: 6_000, min: 1_000, max: 300_000, unit: 'ms' },
      "BullMQ job lock of the Redis workers: a dead worker's jobs are taken up again within 1 to 1.5 times it.",
    ),
  },
  rollout: ROLLOUT_SETTINGS,
  terminationGraceSeconds: int(
    'TERMINATION_GRACE_PERIOD_SECONDS',
    { default: 30, min: 0, max: 86_400, unit: 'seconds' },
    'Shutdown grace period of workers (spec `worker.terminationGracePeriodSeconds`).',
  ),
  preflight: {
    deadlineMs: int(
      'PREFLIGHT_DEADLINE_SEC',
      { default: 540, min: 1, max: 3600, unit: 'seconds', scale: 1000 },
      '`docproc-admin preflight` gives up after this long.',
    ),
    workerHealthMs: int(
      'PREFLIGHT_WORKER_HEALTH_SEC',
      { default: 360, min: 1, max: 3600, unit: 'seconds', scale: 1000 },
      'How long preflight waits for healthy Redis workers on `cpu` and `io`.',
    ),
  },
} as const;

/** The sections of the reference, in order. */
export const SETTINGS_SECTIONS = [
  { title: 'Server, storage and auth', settings: SERVER_SETTINGS },
  { title: 'Document processing', settings: PROCESSING_SETTINGS },
  { title: 'Usage analytics', settings: USAGE_SETTINGS },
  { title: 'Kafka mode', settings: KAFKA_SETTINGS },
  { title: 'Operations: admission, workers, Redis queue, rollout', settings: OPERATIONS_SETTINGS },
] as const;
