import { loadConfig } from '../../config/app-config.js';
import { ConfigError } from '../../config/config-error.js';
import { QUEUES, type QueueName } from '../../config/queue.types.js';
import { RedisQueueProbe } from '../../processing/queue/queue-status.js';

export interface PreflightCheck {
  name: string;
  ok: boolean;
  detail: string;
  ms: number;
}

export interface PreflightReport {
  ok: boolean;
  reasons: string[];
  checks: PreflightCheck[];
}

const STORE_TIMEOUT_MS = 5000;
const POLL_MS = 500;

/**
 * The upgrade check of the spec (step 3/6): sends a real ping task through the `io` and
 * `cpu` queues of the new queue system and fails when the store is unreachable, a worker
 * is missing, or the configuration is incomplete. Deadline PREFLIGHT_DEADLINE_SEC (9
 * minutes), of which up to PREFLIGHT_WORKER_HEALTH_SEC (6 minutes) waiting for workers.
 */
export async function runPreflight(
  env: Record<string, string | undefined>,
): Promise<PreflightReport> {
  const started = Date.now();
  const checks: PreflightCheck[] = [];
  const record = (name: string, ok: boolean, detail: string, since: number) =>
    checks.push({ name, ok, detail, ms: Date.now() - since });
  const report = (): PreflightReport => ({
    ok: checks.every((c) => c.ok),
    reasons: checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`),
    checks,
  });

  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    record('configuration', false, error.message, started);
    return report();
  }
  const redis = config.operations.redis;
  if (!redis) {
    record(
      'configuration',
      false,
      'REDIS_URL is not set: the new queue system is not configured',
      started,
    );
    return report();
  }
  record(
    'configuration',
    true,
    `REDIS_URL set, prefix ${redis.prefix}, worker pool cpu=${redis.cpuConcurrency} io=${redis.ioConcurrency}`,
    started,
  );
  const deadline = started + config.operations.preflight.deadlineMs;
  const probe = new RedisQueueProbe(redis);
  try {
    let since = Date.now();
    try {
      await probe.ping(STORE_TIMEOUT_MS);
      record('store', true, 'Redis answers PING', since);
    } catch (error) {
      record('store', false, `Redis unreachable: ${(error as Error).message}`, since);
      return report();
    }

    since = Date.now();
    const healthDeadline = Math.min(deadline, since + config.operations.preflight.workerHealthMs);
    const missing = new Set<QueueName>(QUEUES);
    while (missing.size) {
      for (const queue of [...missing]) {
        const count = await probe.workerCount(queue, STORE_TIMEOUT_MS).catch(() => 0);
        if (count > 0) missing.delete(queue);
      }
      if (!missing.size || Date.now() >= healthDeadline) break;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    if (missing.size) {
      record('workers', false, `no worker serves queue(s) ${[...missing].join(', ')}`, since);
      return report();
    }
    record('workers', true, 'workers connected to cpu and io', since);

    for (const queue of ['io', 'cpu'] as const) {
      since = Date.now();
      try {
        const worker = await probe.pingThrough(queue, Math.max(1, deadline - Date.now()));
        record(`ping ${queue}`, true, `answered by ${worker}`, since);
      } catch (error) {
        record(
          `ping ${queue}`,
          false,
          `ping task not completed: ${(error as Error).message}`,
          since,
        );
      }
    }
    return report();
  } finally {
    await probe.close();
  }
}
