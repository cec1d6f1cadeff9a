/**
 * The queue command kinds of jobs: the database queue's workers, the Redis routing and the
 * results consumer name a job's pipeline by these.
 */
export const CLASSIFY_TASK = 'classify';
export const OPERATION_TASK = 'operation';
export const PIPELINE_TASK = 'pipeline';
