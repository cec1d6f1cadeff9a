import type { RolloutReport } from '../../processing/queue/queue-status.js';
import { legacyDisableRefusals } from './legacy-disable.guard.js';

export interface LegacyDisableCheck {
  allowed: boolean;
  reasons: string[];
  rollout: RolloutReport['ratios'];
  drained: boolean;
}

/**
 * `docproc-admin upgrade check-disable-legacy --url <running server>`: asks the running HTTP
 * process (GET /rollout and GET /drain_status) whether the legacy workers may be turned off.
 */
export async function checkDisableLegacy(
  baseUrl: string,
  timeoutMs = 10_000,
): Promise<LegacyDisableCheck> {
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(new URL(path, baseUrl), { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) throw new Error(`GET ${path} answered HTTP ${res.status}`);
    return (await res.json()) as T;
  };
  const [rollout, drain] = await Promise.all([
    get<RolloutReport>('/rollout'),
    get<{ drained: boolean; legacy_active_tasks: number }>('/drain_status'),
  ]);
  const reasons = legacyDisableRefusals(
    rollout.ratios,
    rollout.new_queue_configured,
    drain.drained ? 0 : Math.max(1, drain.legacy_active_tasks),
  );
  return {
    allowed: reasons.length === 0,
    reasons,
    rollout: rollout.ratios,
    drained: drain.drained,
  };
}
