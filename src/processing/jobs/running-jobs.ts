import { Injectable } from '@nestjs/common';

/**
 * The jobs this process is running, each with the AbortController of its task: `POST
 * /cancel` aborts it, which ends the executor process doing the work (documents/executors)
 * instead of letting it run to the end and discarding the result.
 */
@Injectable()
export class RunningJobs {
  private readonly running = new Map<string, AbortController>();

  /** Registers a started job; the returned signal aborts when it is cancelled. */
  start(jobId: string): AbortSignal {
    const controller = new AbortController();
    this.running.set(jobId, controller);
    return controller.signal;
  }

  finish(jobId: string): void {
    this.running.delete(jobId);
  }

  /** Aborts the job's task if this process runs it; false when it does not. */
  abort(jobId: string): boolean {
    const controller = this.running.get(jobId);
    if (!controller) return false;
    controller.abort(new DOMException(`Job ${jobId} was cancelled`, 'AbortError'));
    return true;
  }
}
