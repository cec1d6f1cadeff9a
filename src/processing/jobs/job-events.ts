import { Injectable } from '@nestjs/common';

/** Why a wait for a job ended. */
export type WaitOutcome = 'finished' | 'aborted' | 'timeout';

/** In-process "job finished" signals, for sync requests awaiting their job and clean-ups. */
@Injectable()
export class JobEvents {
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly listeners: ((jobId: string) => void)[] = [];

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
      };
      const done = () => settle('finished');
      const onAbort = () => settle('aborted');
      set.add(done);
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

  /** Wakes every waiter (shutdown): they re-read their job and answer with its state. */
  releaseAll(): void {
    for (const jobId of [...this.waiters.keys()]) this.finished(jobId);
  }
}
