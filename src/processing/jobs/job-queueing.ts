import { isDeepWork, operationOfType } from '../operations/operations.js';
import { command, commandType, type QueueCommand, RunJobCommand } from '../queue/queue-command.js';
import type { AddOptions } from '../queue/queue-port.js';
import { laneFor, type LaneFields } from './job-pipeline.js';
import type { JobRecord } from '../core/job.types.js';

/** The stored request's lane fields, with the spec's defaults where a field is missing. */
function laneFields(request: Record<string, unknown>): LaneFields {
  const asyncConfig = request.async;
  const asyncPriority =
    typeof asyncConfig === 'object' && asyncConfig !== null && 'priority' in asyncConfig
      ? asyncConfig.priority === true
      : false;
  return {
    queue_priority: typeof request.queue_priority === 'string' ? request.queue_priority : undefined,
    priority: request.priority !== false,
    async: { priority: asyncPriority },
  };
}

/** The cpu command that runs a stored job (its pipeline's `kind`). */
export function jobCommand(kind: string, job: Pick<JobRecord, 'jobId' | 'type'>): QueueCommand {
  const payload = { jobId: job.jobId, operation: operationOfType(job.type) };
  return command(commandType(kind, RunJobCommand), payload);
}

/**
 * Where a stored job's command waits, as its submission chose: the cpu queue, the lane of
 * its request, deep work apart, as its organization's work; a sync job's caller is gone
 * after a restart, so it is tried once, unless it was kept for polling (its client polls it
 * like an async job).
 */
export function jobAddOptions(
  job: Pick<JobRecord, 'orgId' | 'type' | 'request' | 'isAsync'> &
    Partial<Pick<JobRecord, 'keptForPolling'>>,
  jobMaxAttempts: number,
): AddOptions {
  return {
    queue: 'cpu',
    lane: laneFor(laneFields(job.request), job.isAsync),
    maxAttempts: job.isAsync || job.keptForPolling ? jobMaxAttempts : 1,
    deep: isDeepWork(job.type, job.request),
    // The queue's workers are shared fairly between organizations.
    tenant: job.orgId,
  };
}
