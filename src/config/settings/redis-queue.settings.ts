import { ALL_ROLLOUT_KEYS, type RolloutKey, rolloutEnvName } from '../rollout-keys.js';
import { float, int, optionalText, type Setting, text } from '../setting.js';

/* The Redis (BullMQ) queue and the rollout shares routed to it. Part of OPERATIONS_SETTINGS. */

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

export const REDIS_QUEUE_SETTINGS = {
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
} as const;
