/**
 * Why an executor process stopped a task. Plain errors (no HTTP types): the job runner
 * maps them by `code` and `status`, a sync request answers with that status, an async job
 * is Failed with the message as its reason. Each message names the setting involved.
 */
export class ExecutorLimitError extends Error {
  constructor(
    readonly code: 'TASK_TIME_LIMIT' | 'EXECUTOR_MEMORY_LIMIT',
    message: string,
    /** 422: the document needs more time than allowed; 413: more memory. */
    readonly status: 413 | 422,
  ) {
    super(message);
    this.name = 'ExecutorLimitError';
  }
}

/** The task ended its executor (native abort, killed) on its first run and on its retry. */
export class ExecutorCrashedError extends Error {
  readonly code = 'EXECUTOR_CRASHED';
  readonly status = 422;
  constructor(message: string) {
    super(message);
    this.name = 'ExecutorCrashedError';
  }
}
