import { Injectable } from '@nestjs/common';

/** In-process "job finished" signals, for sync requests awaiting their job. */
@Injectable()
export class JobEvents {
  private readonly waiters = new Map<string, Set<() => void>>();

  /** Register before the job can finish (i.e. before enqueueing) so no signal is missed. */
  waitFor(jobId: string, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const set = this.waiters.get(jobId) ?? new Set<() => void>();
      const done = () => {
        set.delete(done);
        if (set.size === 0) this.waiters.delete(jobId);
        resolve();
      };
      set.add(done);
      this.waiters.set(jobId, set);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  finished(jobId: string): void {
    for (const done of [...(this.waiters.get(jobId) ?? [])]) done();
  }

  /** Wakes every waiter (shutdown): they re-read their job and answer with its state. */
  releaseAll(): void {
    for (const jobId of [...this.waiters.keys()]) this.finished(jobId);
  }
}
