import { ConfigError, readBool, readInt } from './env-readers.js';

type Env = Record<string, string | undefined>;

/** Settings of the processing plane (jobs, queues, uploads, fetches, webhooks, outbox). */
export interface ProcessingConfig {
  /** Largest upload or fetched input, in bytes (MAX_UPLOAD_BYTES, default 100 MB). */
  maxUploadBytes: number;
  fetchTimeoutMs: number;
  /** Host names or IP literals the SSRF guard lets through although they are private. */
  fetchAllowHosts: string[];
  /** Turns the SSRF guard off entirely (self-hosted installs fetching from their own network). */
  fetchAllowPrivate: boolean;
  /** How long a presigned upload URL stays valid. */
  presignTtlSeconds: number;
  /** How long a `force_url_result` URL stays valid. */
  resultUrlTtlSeconds: number;
  /** Job results are purged this long after completion unless `persist_results`; 0 keeps them. */
  resultRetentionSeconds: number;
  /** Attempts of a job whose worker died mid-run, before it is Failed. */
  jobMaxAttempts: number;
  cpuWorkerConcurrency: number;
  /**
   * Worker threads each pool (classification; parse/extract/split) keeps loaded while idle.
   * A thread holds the language model, WordNet and pdf.js (~100 MB) and takes 1-2 s to
   * start; the others start on demand and leave after a minute idle.
   */
  cpuWorkerWarmThreads: number;
  ioWorkerConcurrency: number;
  /** How long shutdown waits for tasks in flight; the rest stay `running` and are retried at start-up. */
  workerShutdownGraceMs: number;
  /** Fallback poll interval of idle workers; enqueues wake them at once. */
  queuePollIntervalMs: number;
  /**
   * How long a sync request (`POST /classify`, `/parse`, `/extract`, `/split`) waits for its
   * job before answering 504 SYNC_TIMEOUT with the job id to poll; the job keeps running.
   * 0: no limit.
   */
  syncTimeoutMs: number;
  webhookMaxAttempts: number;
  webhookRetryBaseMs: number;
  webhookRetryMaxMs: number;
  webhookTimeoutMs: number;
  outboxRelayIntervalMs: number;
  /**
   * How long the relay waits after a job finished before sending, so completions close
   * together share one usage write instead of one each.
   */
  outboxRelayLingerMs: number;
  outboxBatchSize: number;
}

export function loadProcessingConfig(env: Env): ProcessingConfig {
  const allowHosts = (env.FETCH_ALLOW_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  for (const host of allowHosts) {
    if (/[\s/]/.test(host))
      throw new ConfigError('FETCH_ALLOW_HOSTS', `"${host}" is not a host name`);
  }
  return {
    maxUploadBytes: readInt(env, 'MAX_UPLOAD_BYTES', 100 * 1024 * 1024, 1),
    fetchTimeoutMs: readInt(env, 'FETCH_TIMEOUT_MS', 30_000, 100),
    fetchAllowHosts: allowHosts,
    fetchAllowPrivate: readBool(env, 'FETCH_ALLOW_PRIVATE', false),
    presignTtlSeconds: readInt(env, 'PRESIGN_TTL_SECONDS', 3600, 1),
    resultUrlTtlSeconds: readInt(env, 'RESULT_URL_TTL_SECONDS', 3600, 1),
    resultRetentionSeconds: readInt(env, 'JOB_RESULT_RETENTION_SECONDS', 7 * 24 * 3600, 0),
    jobMaxAttempts: readInt(env, 'JOB_MAX_ATTEMPTS', 3, 1, 100),
    cpuWorkerConcurrency: readInt(env, 'CPU_WORKER_CONCURRENCY', 2, 1, 256),
    cpuWorkerWarmThreads: readInt(env, 'CPU_WORKER_WARM_THREADS', 1, 0, 256),
    ioWorkerConcurrency: readInt(env, 'IO_WORKER_CONCURRENCY', 8, 1, 1024),
    workerShutdownGraceMs: readInt(env, 'WORKER_SHUTDOWN_GRACE_MS', 30_000, 0),
    queuePollIntervalMs: readInt(env, 'QUEUE_POLL_INTERVAL_MS', 500, 10),
    syncTimeoutMs: readInt(env, 'SYNC_TIMEOUT_MS', 300_000, 0, 86_400_000),
    webhookMaxAttempts: readInt(env, 'WEBHOOK_MAX_ATTEMPTS', 8, 1, 100),
    webhookRetryBaseMs: readInt(env, 'WEBHOOK_RETRY_BASE_MS', 5_000, 1),
    webhookRetryMaxMs: readInt(env, 'WEBHOOK_RETRY_MAX_MS', 3_600_000, 1),
    webhookTimeoutMs: readInt(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100),
    outboxRelayIntervalMs: readInt(env, 'OUTBOX_RELAY_INTERVAL_MS', 1_000, 10),
    outboxRelayLingerMs: readInt(env, 'OUTBOX_RELAY_LINGER_MS', 200, 0, 60_000),
    outboxBatchSize: readInt(env, 'OUTBOX_BATCH_SIZE', 500, 1, 10_000),
  };
}
