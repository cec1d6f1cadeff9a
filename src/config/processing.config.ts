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
  /** Bound on resolving a webhook URL's host name when the request or endpoint is submitted. */
  webhookResolveTimeoutMs: number;
  outboxRelayIntervalMs: number;
  /**
   * How long the relay waits after a job finished before sending, so completions close
   * together share one usage write instead of one each.
   */
  outboxRelayLingerMs: number;
  outboxBatchSize: number;
  /** Document input limits, checked before decoding (documents/document-limits.ts). */
  documentLimits: DocumentLimits;
  /** Text limits of a classify request, checked at submission (422). */
  classifyLimits: ClassifyLimits;
  /** The child processes document work runs in (documents/executors). */
  executors: ExecutorSettings;
}

/**
 * Input limits of the document readers, checked before any decoding starts (enforced in
 * documents/readers/document-limits.ts; each error names the setting).
 */
export interface DocumentLimits {
  /** Width x height of an image, read from its header (MAX_IMAGE_PIXELS). */
  maxImagePixels: number;
  /** Pages of one request's documents together (MAX_DOCUMENT_PAGES). */
  maxPages: number;
  /** Inflated size of a zip-based document (DOCX), from its central directory. */
  maxZipUncompressedBytes: number;
  /** Inflated size / stored size of a zip-based document (MAX_ZIP_COMPRESSION_RATIO). */
  maxZipCompressionRatio: number;
  /** Element nesting depth of HTML and of a DOCX's XML (MAX_MARKUP_DEPTH). */
  maxMarkupDepth: number;
}

export const DEFAULT_DOCUMENT_LIMITS: Readonly<DocumentLimits> = {
  // A 600 dpi A4 scan is 35 megapixels; decoding 50 takes ~200 MB as RGBA.
  maxImagePixels: 50_000_000,
  maxPages: 2_000,
  maxZipUncompressedBytes: 256 * 1024 * 1024,
  // Word XML compresses 5-20x; zip bombs 1000x and more.
  maxZipCompressionRatio: 200,
  // Real documents nest a few dozen levels; the HTML converter recurses per level.
  maxMarkupDepth: 256,
};

export interface ClassifyLimits {
  /** Characters of one criterion (MAX_CRITERION_CHARS). */
  maxCriterionChars: number;
  /** Characters of one category name (MAX_CATEGORY_CHARS). */
  maxCategoryChars: number;
  /** Characters of `document_metadata` (MAX_DOCUMENT_METADATA_CHARS). */
  maxDocumentMetadataChars: number;
  /** Entries of `classification_schema` (MAX_CATEGORIES). */
  maxCategories: number;
}

export interface ExecutorSettings {
  /** V8 old-space ceiling of each executor process, MB (EXECUTOR_HEAP_MB). */
  heapMb: number;
  /** Resident memory past which the parent ends an executor mid-task, MB (EXECUTOR_RSS_LIMIT_MB). */
  rssLimitMb: number;
  /** An idle executor above this resident size is replaced after its task, MB (EXECUTOR_RECYCLE_RSS_MB). */
  recycleRssMb: number;
  /** Wall-clock limit of one task, ms (TASK_TIME_LIMIT_MS). */
  taskTimeLimitMs: number;
  /** An executor beyond the warm ones exits after this long idle, ms (EXECUTOR_IDLE_MS). */
  idleMs: number;
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
    webhookResolveTimeoutMs: readInt(env, 'WEBHOOK_RESOLVE_TIMEOUT_MS', 2_000, 50, 4_000),
    outboxRelayIntervalMs: readInt(env, 'OUTBOX_RELAY_INTERVAL_MS', 1_000, 10),
    outboxRelayLingerMs: readInt(env, 'OUTBOX_RELAY_LINGER_MS', 200, 0, 60_000),
    outboxBatchSize: readInt(env, 'OUTBOX_BATCH_SIZE', 500, 1, 10_000),
    documentLimits: loadDocumentLimits(env),
    classifyLimits: {
      maxCriterionChars: readInt(env, 'MAX_CRITERION_CHARS', 2_000, 1),
      maxCategoryChars: readInt(env, 'MAX_CATEGORY_CHARS', 256, 1),
      maxDocumentMetadataChars: readInt(env, 'MAX_DOCUMENT_METADATA_CHARS', 20_000, 1),
      maxCategories: readInt(env, 'MAX_CATEGORIES', 200, 1),
    },
    executors: {
      heapMb: readInt(env, 'EXECUTOR_HEAP_MB', 1_024, 64),
      rssLimitMb: readInt(env, 'EXECUTOR_RSS_LIMIT_MB', 1_280, 64),
      recycleRssMb: readInt(env, 'EXECUTOR_RECYCLE_RSS_MB', 400, 64),
      taskTimeLimitMs: readInt(env, 'TASK_TIME_LIMIT_MS', 120_000, 100),
      idleMs: readInt(env, 'EXECUTOR_IDLE_MS', 60_000, 1_000),
    },
  };
}

function loadDocumentLimits(env: Env): DocumentLimits {
  const d = DEFAULT_DOCUMENT_LIMITS;
  return {
    maxImagePixels: readInt(env, 'MAX_IMAGE_PIXELS', d.maxImagePixels, 1),
    maxPages: readInt(env, 'MAX_DOCUMENT_PAGES', d.maxPages, 1),
    maxZipUncompressedBytes: readInt(
      env,
      'MAX_ZIP_UNCOMPRESSED_BYTES',
      d.maxZipUncompressedBytes,
      1,
    ),
    maxZipCompressionRatio: readInt(env, 'MAX_ZIP_COMPRESSION_RATIO', d.maxZipCompressionRatio, 1),
    maxMarkupDepth: readInt(env, 'MAX_MARKUP_DEPTH', d.maxMarkupDepth, 1),
  };
}
