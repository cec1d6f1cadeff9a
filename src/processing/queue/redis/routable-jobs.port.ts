import type { InputSource } from '../../core/input-document.js';
import type { RedisOperation } from './redis-queue.types.js';

/** A stored job as the routing strategy sees it, before it chooses a queue. */
export interface RoutableJob {
  orgId: string;
  /** The command's operation when it names a known one, else the stored request's. */
  operation: RedisOperation;
  /** The stored request, as a Redis task carries it. */
  request: Record<string, unknown>;
  /** The versions resolved when the job was accepted (JobRecord.versions). */
  versions: unknown;
  /** The job's inputs as sources a Redis worker reads (ownership checked); read only if routed. */
  sources(): Promise<InputSource[]>;
}

/**
 * What the routing strategy needs of the job store and the input resolver, and no more: the
 * queue stays below `jobs/`, which provides this port (JobsAsRoutable).
 */
export interface RoutableJobs {
  /** undefined when the job is gone. `operation`: the one the run-job command names, if any. */
  find(jobId: string, operation?: string): Promise<RoutableJob | undefined>;
}

export const ROUTABLE_JOBS = Symbol('ROUTABLE_JOBS');
