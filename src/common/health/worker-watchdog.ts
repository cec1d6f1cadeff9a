import fs from 'node:fs';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import type { LivenessConfig } from '../../config/operations.config.js';
import type { InFlightSource } from './in-flight.js';

export const WATCHDOG_WARNING_LOG = 'worker_watchdog.task_near_stuck_threshold';
/** Spec: the watchdog warns when an in-flight task passes 80% of the stuck threshold. */
const WARNING_SHARE = 0.8;

/** `<unix_timestamp> <oldest_in_flight_task_age_seconds>`, age -1 when idle (spec). */
export function stateLine(nowMs: number, oldestMs: number): string {
  const age = oldestMs < 0 ? -1 : Math.floor(oldestMs / 1000);
  return `${Math.floor(nowMs / 1000)} ${age}\n`;
}

/**
 * The worker liveness watchdog: a timer on the worker's own event loop writes the state
 * file every interval (5 s). A blocked loop stops the writes, so the file goes stale; a
 * stuck task shows as a growing age. `scripts/worker-liveness.sh` judges both. The warning
 * is logged whatever the probe setting, once per task episode (reset when the age drops).
 */
export class WorkerWatchdog {
  private readonly logger = new Logger('WorkerWatchdog');
  private timer: NodeJS.Timeout | null = null;
  /** A one-shot check at the moment the oldest task reaches 80%, between two ticks. */
  private warnTimer: NodeJS.Timeout | null = null;
  private warned = false;

  constructor(
    private readonly config: LivenessConfig,
    private readonly sources: InFlightSource[],
    private readonly role: string,
  ) {}

  start(): void {
    if (this.timer) return;
    fs.mkdirSync(path.dirname(this.config.stateFile), { recursive: true });
    this.tick();
    this.timer = setInterval(() => this.tick(), this.config.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.warnTimer) clearTimeout(this.warnTimer);
    this.timer = null;
    this.warnTimer = null;
  }

  /** `now`: the wall-clock time the line is stamped with (ages come from the sources). */
  tick(now = Date.now()): void {
    const oldest = this.oldest();
    try {
      const tmp = `${this.config.stateFile}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, stateLine(now, oldest));
      fs.renameSync(tmp, this.config.stateFile);
    } catch (error) {
      this.logger.error({ err: error, file: this.config.stateFile }, 'cannot write worker state');
    }
    this.checkWarning(oldest);
  }

  private oldest(): number {
    return Math.max(-1, ...this.sources.map((s) => s.oldestInFlightMs()));
  }

  /**
   * Warns once the oldest task passed 80% of the threshold. Ticks come every 5 s, which
   * would make the warning up to 5 s late (with a 10 s threshold, as late as the threshold
   * itself): when the 80% mark falls before the next tick, a one-shot timer checks then.
   */
  private checkWarning(oldest: number): void {
    const warnAtMs = WARNING_SHARE * this.config.stuckThresholdSec * 1000;
    if (this.warnTimer) clearTimeout(this.warnTimer);
    this.warnTimer = null;
    if (oldest >= 0 && oldest < warnAtMs && warnAtMs - oldest < this.config.intervalMs) {
      this.warnTimer = setTimeout(
        () => {
          this.warnTimer = null;
          this.checkWarning(this.oldest());
        },
        Math.ceil(warnAtMs - oldest),
      );
      this.warnTimer.unref();
    }
    if (oldest >= warnAtMs) {
      if (!this.warned) {
        this.warned = true;
        this.logger.warn(
          {
            event: WATCHDOG_WARNING_LOG,
            role: this.role,
            oldestTaskAgeSeconds: Math.floor(oldest / 1000),
            stuckThresholdSeconds: this.config.stuckThresholdSec,
            probeEnabled: this.config.probeEnabled,
          },
          `${WATCHDOG_WARNING_LOG}: an in-flight task passed 80% of the stuck threshold`,
        );
      }
    } else this.warned = false;
  }
}
