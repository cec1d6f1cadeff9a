import path from 'node:path';
import { bool, filePath, fixed, float, int, list, oneOf, optionalText, text } from '../setting.js';
import { MiB } from './shared.js';

/* The usage plane: the event normalizer, metadata key cardinality, rollups, the export's
 * cache and the read snapshots export replicas serve from. */

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
      "Usage events older than this are refused by every path, the operator's backfill included: they would rewrite closed finance periods.",
    ),
    lateWindowMs: int(
      'USAGE_LATE_EVENT_WINDOW_DAYS',
      { default: 90, min: 1, max: 36_500, unit: 'days', scale: 86_400_000 },
      'Live usage events (the Kafka topic) older than this are refused to the dead-letter topic as `late_event`; only an operator backfill (`docproc-admin usage import --allow-late`) loads older ones, up to `USAGE_MAX_EVENT_AGE_DAYS`.',
    ),
  },
  normalizerThread: bool(
    'USAGE_NORMALIZER_THREAD',
    true,
    'Parse and normalize Kafka batches of usage events on a worker thread of their own, beside the thread that runs the consumer and the DuckDB writes; `false` does it on that thread, which keeps the ~20 MB of a second JS heap (and the batches it holds) out of the process at the cost of the two threads working in parallel (docs/benchmarks.md, "Ingestion: what the Node side of the process holds").',
  ),
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
    maxKeysPerOrg: int(
      'METADATA_KEYS_MAX_PER_ORG',
      { default: 100, min: 1 },
      "Distinct async-metadata keys an organization's usage is broken out by (tracked, enabled or rejected keys). Keys first seen past it stay in the job's metadata and its webhook, but get no usage rollups and cannot be enabled: one tenant's new key per request does not grow the usage store (docs/decisions/0509-*).",
    ),
  },
  /** Where usage events and their rollups live (docs/scaling.md). */
  store: {
    kind: oneOf(
      'USAGE_STORE',
      ['duckdb', 'clickhouse'],
      'duckdb',
      '`clickhouse`: usage events, rollups and export reads go to the ClickHouse server at `CLICKHOUSE_URL` (several ingest processes can share it); accounts and metadata-key settings stay in DuckDB.',
    ),
    clickhouseUrl: optionalText(
      'CLICKHOUSE_URL',
      {
        pattern: {
          regex: /^https?:\/\/[^\s/]+(\/[^\s]*)?$/,
          message: 'must be an http(s) URL such as http://127.0.0.1:8123',
        },
        type: 'URL',
      },
      "The ClickHouse server's HTTP interface (user and password may be given in the URL); required with `USAGE_STORE=clickhouse`.",
    ),
    clickhouseDatabase: text(
      'CLICKHOUSE_DATABASE',
      {
        default: 'docproc',
        pattern: { regex: /^[A-Za-z_][A-Za-z0-9_]{0,62}$/, message: 'must be a plain identifier' },
      },
      'The ClickHouse database that holds the usage tables (created by the migrations when missing).',
    ),
    clickhouseCluster: optionalText(
      'CLICKHOUSE_CLUSTER',
      {
        pattern: { regex: /^[A-Za-z_][A-Za-z0-9_]{0,62}$/, message: 'must be a plain identifier' },
      },
      "A cluster of the server's `remote_servers` to spread the usage tables over: each shard holds its part in `<CLICKHOUSE_DATABASE>_shard`, and `CLICKHOUSE_DATABASE` holds `Distributed` tables over them. Unset: one server.",
    ),
    clickhouseShardUrls: list(
      'CLICKHOUSE_SHARD_URLS',
      {
        item: {
          regex: /^https?:\/\/[^\s/,]+\/?$/,
          message: 'each shard must be an http(s) URL such as http://10.0.0.2:8123',
        },
        type: 'list of URLs',
      },
      "With `CLICKHOUSE_CLUSTER`: every shard's HTTP interface, `CLICKHOUSE_URL`'s server among them (the migrations create each shard's tables there).",
    ),
  },
  rollupClusterIntervalMs: int(
    'USAGE_ROLLUP_CLUSTER_INTERVAL_MIN',
    { default: 60, min: 0, max: 7 * 24 * 60, unit: 'minutes', scale: 60_000 },
    'How often the usage rollups the export reads are re-clustered in org order (the rows written since the last pass sorted into a run, small runs merged); 0 turns it off.',
  ),
  quarterHourRollupIntervalMs: int(
    'USAGE_QUARTER_HOUR_ROLLUP_INTERVAL_SEC',
    { default: 5, min: 0, max: 3600, unit: 'seconds', scale: 1000 },
    'How often the events written since the last pass are added to the quarter-hour rollups (time-zone and two-dimension exports read the others from the events meanwhile); 0 leaves it to the clustering pass.',
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
    firstSnapshotWaitMs: int(
      'USAGE_REPLICA_FIRST_SNAPSHOT_WAIT_SEC',
      { default: 120, min: 0, max: 86_400, unit: 'seconds', scale: 1000 },
      "How long a starting export replica waits for the writer's first snapshot in `USAGE_SNAPSHOT_DIR` before it refuses to start (exit status 71); a writer started at the same time publishes within its interval.",
    ),
    pollMs: fixed(1_000),
  },
} as const;
