import type { LoggerService } from '@nestjs/common';
import type { ExecutorMemoryReport } from '../../documents/executors/task.pool.js';

/** A task's peak at or past this share of EXECUTOR_RSS_LIMIT_MB is worth an operator's look. */
const NEAR_LIMIT_SHARE = 0.8;

/**
 * The executors' memory in the process log: a recycle (an executor past
 * EXECUTOR_RECYCLE_RSS_MB after its task, replaced; the task has its answer) at `log`, a
 * task whose peak came near EXECUTOR_RSS_LIMIT_MB (where a task is stopped) at `warn`, every
 * other task at `debug`. With the peak beside the bounds, the bounds can be set by
 * measurement (docs/operations.md, "Memory").
 */
export function logExecutorMemory(logger: LoggerService): (report: ExecutorMemoryReport) => void {
  return (report) => {
    if (report.peakMb >= report.rssLimitMb * NEAR_LIMIT_SHARE) {
      logger.warn(report, 'executor task peaked near EXECUTOR_RSS_LIMIT_MB');
    } else if (report.recycled) {
      logger.log(report, 'executor recycled after its task (EXECUTOR_RECYCLE_RSS_MB)');
    } else {
      logger.debug?.(report, 'executor task memory');
    }
  };
}
