import { Injectable } from '@nestjs/common';

/** Why a wait for a job ended. */
export type WaitOutcome = 'finished' | 'aborted' | 'timeout';

/** In-process "job finished" signals, for sync requests awaiting their job and clean-ups. */
@Injectable()
export class JobEvents {
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly listeners: ((jobId: string) => void)[] = [];
  /** Waits not settled yet, over every job. */
  private open = 0;
  private idleListeners: (() => void)[] = [];

  /** Calls `listener` with the id of every job that finishes (or is cancelled or deleted). */
  onFinished(listener: (jobId: string) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Resolves when the job finishes, `signal` aborts (the client went away) or `timeoutMs`
   * passes (0 or undefined: no limit). Register before the job can finish (i.e. before
   * workers are woken) so no signal is missed; callers re-read the job either way.
   */
  waitFor(jobId: string, signal?: AbortSignal, timeoutMs?: number): Promise<WaitOutcome> {
    return new Promise((resolve) => {
      const set = this.waiters.get(jobId) ?? new Set<() => void>();
      let timer: NodeJS.Timeout | undefined;
      const settle = (outcome: WaitOutcome) => {
        if (!set.delete(done)) return;
        if (set.size === 0 && this.waiters.get(jobId) === set) this.waiters.delete(jobId);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
        if (--this.open === 0) this.wakeIdleListeners();
      };
      const done = () => settle('finished');
      const onAbort = () => settle('aborted');
      set.add(done);
      this.open++;
      this.waiters.set(jobId, set);
      if (signal?.aborted) return settle('aborted');
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs) timer = setTimeout(() => settle('timeout'), timeoutMs);
    });
  }

  finished(jobId: string): void {
    for (const done of [...(this.waiters.get(jobId) ?? [])]) done();
    for (const listener of this.listeners) listener(jobId);
  }

  /** Waits for a job not settled yet: the sync requests still waiting for their answer. */
  get waiting(): number {
    return this.open;
  }

  /**
   * Resolves true once no wait is open (at once when none is), false when `timeoutMs`
   * passes first. Waits opened meanwhile count too.
   */
  whenIdle(timeoutMs: number): Promise<boolean> {
    if (this.open === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const idle = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.idleListeners = this.idleListeners.filter((listener) => listener !== idle);
        resolve(false);
      }, timeoutMs);
      this.idleListeners.push(idle);
    });
  }

  /** Wakes every waiter (shutdown): they re-read their job and answer with its state. */
  releaseAll(): void {
    for (const jobId of [...this.waiters.keys()]) this.finished(jobId);
  }

  private wakeIdleListeners(): void {
    const listeners = this.idleListeners;
    this.idleListeners = [];
    for (const idle of listeners) idle();
  }
}
