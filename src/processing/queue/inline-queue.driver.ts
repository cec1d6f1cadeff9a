import { randomUUID } from 'node:crypto';
import { type CommandType, type QueueCommand, validateCommand } from './queue-command.js';
import { InvalidCommandError } from '../core/processing-error.js';
import type {
  AddOptions,
  QueuedWork,
  QueuePort,
  Unsubscribe,
  WorkHandler,
  WorkOptions,
} from './queue-port.js';

/** One kind's handler, its payload type closed over. */
type Registration = (queued: QueuedWork) => Promise<void>;

/** What the inline queue did with one added command. */
interface InlineOutcome {
  kind: string;
  payload: object;
  status: 'done' | 'retry' | 'failed' | 'invalid' | 'unhandled';
  error?: string;
}

/**
 * The QueuePort in-process, for unit specs: `add` validates the payload and runs the kind's
 * handler at once (a retry the handler asks for runs again at its `retryAt`, on the spec's
 * fake timers when it uses them). `drain()` resolves when nothing is running or waiting.
 * No persistence: a process that dies loses what it held, which is why only specs use it.
 */
export class InlineQueueDriver implements QueuePort {
  private readonly registrations = new Map<string, Registration>();
  private readonly pending = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Every command taken, in order, with what became of it. */
  readonly outcomes: InlineOutcome[] = [];

  async add<P extends object>(command: QueueCommand<P>, options: AddOptions): Promise<void> {
    const work: QueuedWork = {
      id: options.id ?? randomUUID(),
      kind: command.kind,
      payload: command.payload,
      queue: options.queue,
      lane: options.lane,
      attempts: 0,
      maxAttempts: options.maxAttempts ?? 1,
      enqueuedAt: new Date(),
    };
    this.schedule(work, options.availableAt);
    return Promise.resolve();
  }

  work<P extends object>(
    type: CommandType<P>,
    handler: WorkHandler<P>,
    options: WorkOptions<P> = {},
  ): Unsubscribe {
    const registration: Registration = (queued) => this.take(queued, type, handler, options);
    this.registrations.set(type.kind, registration);
    return () => {
      if (this.registrations.get(type.kind) === registration) this.registrations.delete(type.kind);
    };
  }

  /** Resolves once every command added so far, and every command those added, has run. */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Drops scheduled retries (a spec's afterEach). */
  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(work: QueuedWork, at?: Date): void {
    const delay = at ? at.getTime() - Date.now() : 0;
    if (delay <= 0) {
      this.track(this.run(work));
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.track(this.run(work));
    }, delay);
    this.timers.add(timer);
  }

  private track(running: Promise<void>): void {
    this.pending.add(running);
    void running.finally(() => this.pending.delete(running));
  }

  private async run(queued: QueuedWork): Promise<void> {
    // A microtask later, as a queue would: the producer's own code after `add` runs first.
    await Promise.resolve();
    const registration = this.registrations.get(queued.kind);
    if (!registration) this.record(queued, 'unhandled');
    else await registration(queued);
  }

  private record(queued: QueuedWork, status: InlineOutcome['status'], error?: string): void {
    this.outcomes.push({ kind: queued.kind, payload: queued.payload, status, error });
  }

  private async take<P extends object>(
    queued: QueuedWork,
    type: CommandType<P>,
    handler: WorkHandler<P>,
    options: WorkOptions<P>,
  ): Promise<void> {
    let payload: P;
    try {
      payload = validateCommand(type, queued.payload);
    } catch (error) {
      if (error instanceof InvalidCommandError)
        return this.record(queued, 'invalid', error.message);
      throw error;
    }
    const work: QueuedWork<P> = { ...queued, payload, attempts: queued.attempts + 1 };
    try {
      const result = await handler(work);
      if (result) {
        this.record(queued, 'retry', result.error);
        this.schedule({ ...queued, attempts: work.attempts }, result.retryAt);
      } else this.record(queued, 'done');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.record(queued, 'failed', message);
      await options.exhausted?.(work, message);
    }
  }
}
