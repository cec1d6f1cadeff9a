import type { ExecutorSettings } from '../../config/processing.config.js';
import type { ExecutorProcess } from './executor.process.js';

/** An executor's memory after a task (MB), as the pool judged it against its bounds. */
export interface ExecutorMemoryReport {
  pid: number | undefined;
  /** Resident size after the task. */
  rssMb: number;
  /**
   * Resident size the executor rests at: below rssMb when it was above the recycle size and
   * let go of OCR's workers first (then judged by this).
   */
  restedMb: number;
  /** The highest resident size during the task (0: the system does not say). */
  peakMb: number;
  /** Past EXECUTOR_RECYCLE_RSS_MB at rest: replaced now (the task has its answer). */
  recycled: boolean;
  recycleRssMb: number;
  rssLimitMb: number;
}

const mb = (bytes: number) => Math.round(bytes / 1048576);

/** The report of an executor's last task, judged against the pool's settings. */
export function memoryReport(
  executor: ExecutorProcess,
  settings: Pick<ExecutorSettings, 'recycleRssMb' | 'rssLimitMb'>,
  recycled: boolean,
): ExecutorMemoryReport {
  return {
    pid: executor.pid,
    rssMb: mb(executor.lastTaskRss),
    restedMb: mb(executor.lastRss),
    peakMb: mb(executor.lastPeakRss),
    recycled,
    recycleRssMb: settings.recycleRssMb,
    rssLimitMb: settings.rssLimitMb,
  };
}
