import type { JobRecord } from './job.types.js';

/**
 * One job read by id: all that the rooms below `jobs/` (inputs reading a `jobid://` parse
 * job) know of the job store. JobsRepository provides it.
 */
export interface JobLookup {
  find(jobId: string): Promise<JobRecord | null>;
}

export const JOB_LOOKUP = Symbol('JOB_LOOKUP');
