import { bool, int, list, oneOf, optionalText } from '../setting.js';
import { DOCUMENT_SETTINGS } from './documents.settings.js';
import { KiB, MiB, numberOr, TEN_YEARS_SECONDS } from './shared.js';

/* The document API: uploads and fetched inputs, jobs and their workers, webhooks, the outbox. */

export const PROCESSING_SETTINGS = {
  maxUploadBytes: int(
    'MAX_UPLOAD_BYTES',
    { default: 100 * MiB, min: 1, unit: 'bytes' },
    'Largest upload or fetched input.',
  ),
  orgStorageQuotaBytes: int(
    'ORG_STORAGE_QUOTA_BYTES',
    { default: 10 * 1024 * MiB, min: 0, unit: 'bytes' },
    "Bytes one organization may keep stored (its uploads plus its jobs' results until retention drops them); an upload that would pass it is refused with 413 `STORAGE_QUOTA_EXCEEDED`. 0 removes the quota.",
  ),
  uploadRetentionSeconds: int(
    'UPLOAD_RETENTION_SECONDS',
    { default: 7 * 24 * 3600, min: 0, max: TEN_YEARS_SECONDS, unit: 'seconds' },
    'Uploaded files are deleted this long after their upload (a `docproc://` id then answers 404), so uploads leave the data dir and the quota as results do; 0 keeps them.',
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
  fetchAllowedHostsOnly: bool(
    'FETCH_ALLOWED_HOSTS_ONLY',
    false,
    'Egress allow-list: URL inputs and webhooks may reach only the hosts in `FETCH_ALLOW_HOSTS`; any other host is refused with 400 `INPUT_URL_BLOCKED` before its name is resolved (installs whose outbound traffic must stay on known hosts, and test runs that must never leave the machine).',
  ),
  maxInputsPerRequest: int(
    'MAX_INPUTS_PER_REQUEST',
    { default: 20, min: 1, max: 1_000 },
    'Documents in one request\'s `input` list (422 at `["body","input"]` beyond).',
  ),
  inputDownloads: oneOf(
    'INPUT_DOWNLOADS',
    ['before_queue', 'in_worker'],
    'before_queue',
    "Where URL inputs are downloaded. `before_queue`: by the API process before the job is queued for a cpu worker, per organization (`FETCH_CONCURRENCY_PER_ORG`), so a slow server never holds a cpu worker. `in_worker`: by the cpu worker that runs the job, inside its slot, one input after the other (for deployments whose API process may not reach the inputs' servers; a slow server then holds that worker).",
  ),
  fetchDeadlineMs: int(
    'FETCH_DEADLINE_MS',
    { default: 120_000, min: 100, unit: 'ms' },
    "Time limit of downloading all URL inputs of one request, from its first download's start: past it the job fails with `INPUT_FETCH_TIMEOUT` (each URL also has `FETCH_TIMEOUT_MS`).",
  ),
  fetchConcurrencyPerOrg: int(
    'FETCH_CONCURRENCY_PER_ORG',
    { default: 4, min: 1, max: 256 },
    "URL inputs one organization downloads at once. Downloads run before a job takes a cpu worker, so they never hold one; an organization's further inputs wait for its own downloads, never for another's.",
  ),
  presignTtlSeconds: int(
    'PRESIGN_TTL_SECONDS',
    { default: 3600, min: 1, max: TEN_YEARS_SECONDS, unit: 'seconds' },
    'How long a presigned upload URL stays valid.',
  ),
  resultUrlTtlSeconds: int(
    'RESULT_URL_TTL_SECONDS',
    { default: 3600, min: 1, max: TEN_YEARS_SECONDS, unit: 'seconds' },
    'How long a `force_url_result` link stays valid.',
  ),
  resultRetentionSeconds: int(
    'JOB_RESULT_RETENTION_SECONDS',
    { default: 7 * 24 * 3600, min: 0, max: TEN_YEARS_SECONDS, unit: 'seconds' },
    'Job results are purged this long after completion unless `persist_results`; 0 keeps them.',
  ),
  jobHistoryRetentionSeconds: int(
    'JOB_HISTORY_RETENTION_SECONDS',
    { default: 30 * 24 * 3600, min: 0, max: TEN_YEARS_SECONDS, unit: 'seconds' },
    'Finished jobs are deleted this long after they finished, with their webhook deliveries and sent usage-outbox rows (`GET /job/{id}` then answers 404 `JOB_NOT_FOUND`), so the job tables hold the jobs of that window rather than every job ever run (the database file reuses little of the space freed: `docproc-admin database compact` gives it back, docs/operations.md); usage already recorded stays. Never a job still queued or running, one with `persist_results`, one whose result is still kept (a completed job goes only once `JOB_RESULT_RETENTION_SECONDS` dropped its result, so with a longer result retention, or 0, completed jobs stay that long), one with a webhook delivery still pending or a usage event not yet sent. 0 keeps every job.',
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
    'Executors each pool starts with the service and keeps loaded while idle (~100 MB each, 1-2 s to load), so the first request does not wait for one; others start on demand and leave after a minute idle.',
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
    'Fallback poll interval of idle workers, doubling after each poll that finds the queue empty up to 8 intervals; enqueues wake them at once.',
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
  webhookSigningKey: optionalText(
    'WEBHOOK_SIGNING_KEY',
    {
      pattern: { regex: /^\S{32,}$/, message: 'must be at least 32 characters without spaces' },
      type: 'secret',
      secret: true,
      defaultText: 'unset: a random secret per organization, kept in `DATA_DIR`',
    },
    "Key every process derives each organization's webhook signing secret from (HMAC-SHA256 of the org id), so several processes (ClickHouse mode with more than one ingest process) sign an org's direct webhooks and usage alerts alike and `GET /webhooks/secret` answers the same everywhere. Set the same value on every process; setting or changing it changes every organization's secret.",
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
  asyncMetadataMaxBytes: int(
    'ASYNC_METADATA_MAX_BYTES',
    { default: 16 * KiB, min: 64, max: 8 * MiB, unit: 'bytes' },
    'Largest `async.metadata`, as compact JSON (422 `metadata_too_large`). The metadata travels with the job into its row, its usage event (outbox, Kafka, usage store) and its webhook bodies, so it is kept to labels and identifiers; documents go in as inputs.',
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
  ...DOCUMENT_SETTINGS,
} as const;
