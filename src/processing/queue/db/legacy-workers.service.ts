import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { isStoreFailure } from '../../../database/store-failure.js';
import { InFlightTracker } from '../../../common/health/in-flight.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import type { AppConfig } from '../../../config/app-config.js';
import {
  databaseQueueWorkers,
  type DatabaseWorkerPool,
} from '../../../config/operations.config.js';
import { DatabaseQueueRepository } from './database-queue.repository.js';
import { PriorityReserve } from '../priority-reserve.js';
import { type QueueTask } from '../queue-task.js';
import {
  type ClaimFilter,
  type Lane,
  type QueueName,
  QUEUES,
} from '../../../config/queue.types.js';

/** At most this many poll intervals between an idle kind's looks at an empty store. */
const IDLE_POLL_BACKOFF_MAX = 8;

/** The work of one task kind (DatabaseQueue wraps a QueuePort handler in one). */
interface TaskHandler<P = unknown> {
  readonly kind: string;
  /** Completes or fails the task in the store. */
  handle(task: QueueTask<P>): Promise<void>;
  /** A task whose attempts ran out (its worker died every time): record the failure. */
  exhausted?(task: QueueTask<P>, reason: string): Promise<void>;
}

/** Start-up steps around the recovery of interrupted tasks, before any loop claims. */
export interface StartupStep {
  /** Before interrupted tasks are recovered (e.g. failing sync jobs whose caller is gone). */
  beforeRecovery?(): Promise<void>;
  /** After: re-adds durable records a crash left without a live task (see QueuePort). */
  afterRecovery?(): Promise<void>;
}

/**
 * The database-queue workers of this process: per worker kind (worker, priority worker, gpu
 * worker, io), loops that claim a task the kind may take (priority lane first), run its
 * handler and go back for more. Enqueues wake idle loops at once; the poll interval is only
 * a fallback (and paces delayed retries). Of a kind's idle loops only one polls the store;
 * the others sleep until woken. Ten loops polling on their own kept DuckDB's read
 * connections busy enough to add tens of milliseconds to every request's reads. While
 * priority work arrives, the `worker` kind keeps loops for it (PriorityReserve), so a sync
 * request does not wait for another organization's running tasks.
 */
@Injectable()
export class LegacyWorkers implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(LegacyWorkers.name);
  private readonly handlers = new Map<string, TaskHandler>();
  private readonly startup: StartupStep[] = [];
  private readonly beforeStop: (() => Promise<void>)[] = [];
  private readonly wakers: Record<QueueName, Set<Sleeper>> = { cpu: new Set(), io: new Set() };
  /** Worker kinds that have a loop polling the store, and when it looks next (ms epoch). */
  private readonly polling = new Map<string, number>();
  /**
   * Per worker kind, the polls in a row that found nothing to claim and nothing scheduled:
   * the poller's wait doubles with each, up to IDLE_POLL_BACKOFF_MAX intervals.
   */
  private readonly emptyPolls = new Map<string, number>();
  private readonly inFlight = new InFlightTracker();
  private readonly loops: Promise<void>[] = [];
  /**
   * The `worker` kind's loops kept for priority-lane work
   * (docs/decisions/0487-worker-kept-for-priority-work-while-it-arrives.md).
   */
  private readonly reserve: PriorityReserve;
  private running = false;

  constructor(
    private readonly driver: DatabaseQueueRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const legacy = config.operations.legacyWorkers;
    // Priority workers' loops (each with its executor) are kept for priority work already:
    // the reserve keeps `worker` loops only for what they do not cover.
    this.reserve = new PriorityReserve(
      config.processing.cpuWorkerConcurrency,
      Math.max(0, legacy.priorityReserve - legacy.priorityCount),
      legacy.priorityReserveHoldMs,
    );
  }

  /** True once shutdown began: handlers must not record failures caused by it. */
  get stopping(): boolean {
    return !this.running;
  }

  /** Takes tasks of `handler.kind` until the returned function is called. */
  register(handler: TaskHandler): () => void {
    this.handlers.set(handler.kind, handler as TaskHandler);
    return () => {
      if (this.handlers.get(handler.kind) === handler) this.handlers.delete(handler.kind);
    };
  }

  /** Runs `step` at start-up, in registration order (see onApplicationBootstrap). */
  onStartup(step: StartupStep): void {
    this.startup.push(step);
  }

  /**
   * Awaits `step` at shutdown before the loops stop claiming (e.g. the sync requests in
   * flight whose jobs these loops still have to run).
   */
  onBeforeStop(step: () => Promise<void>): void {
    this.beforeStop.push(step);
  }

  /**
   * Whether a worker loop of this process claims tasks of `queue` in `lane` (deep work or
   * not: see databaseQueueWorkers). This process owns the database queue (DuckDB is
   * single-process), so when it does not, nothing will: the job waits as `Idle` until a
   * deployment with such workers starts.
   */
  claims(queue: QueueName, lane: Lane, deep = false): boolean {
    return this.pools().some(
      ({ queue: q, filter }) =>
        q === queue &&
        (filter.lanes === undefined || filter.lanes.includes(lane)) &&
        (filter.deep === undefined || (filter.deep === 'only') === deep),
    );
  }

  private pools(): DatabaseWorkerPool[] {
    return databaseQueueWorkers(
      this.config.operations.legacyWorkers,
      this.config.processing.cpuWorkerConcurrency,
      this.config.processing.ioWorkerConcurrency,
    );
  }

  /**
   * Wakes one idle loop of each worker kind taking `queue` (called after an enqueue
   * commits). A loop that claims a task wakes the next of its kind (see loop), so a burst
   * of work still reaches every loop, while a single task no longer sends all of them to
   * the store at once: those empty claims queued up on the pooled reader connections
   * ahead of the woken task's own reads (a webhook retry started ~200 ms late).
   */
  notify(queue: QueueName, lane?: Lane): void {
    if (queue === 'cpu' && lane === 'priority') this.reserve.sawPriorityWork();
    const kinds = new Set([...this.wakers[queue]].map((sleeper) => sleeper.kind));
    for (const kind of kinds) {
      this.emptyPolls.delete(kind);
      this.wakeOne(queue, kind);
    }
  }

  /** Age in ms of the oldest task in flight in this process, -1 when idle (the watchdog's input). */
  oldestInFlightMs(): number {
    return this.inFlight.oldestInFlightMs();
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const step of this.startup) await step.beforeRecovery?.();
    for (const task of await this.driver.recoverInterrupted()) {
      const reason = `Interrupted ${task.attempts} time(s) by a restart; giving up after ${task.maxAttempts} attempt(s)`;
      this.logger.error({ taskId: task.taskId, kind: task.kind }, reason);
      await this.handlers.get(task.kind)?.exhausted?.(task, reason);
    }
    for (const step of this.startup) await step.afterRecovery?.();
    this.running = true;
    // The worker kinds decide the cpu loops and what each may claim.
    const pools = this.pools();
    for (const pool of pools) {
      for (let i = 0; i < pool.loops; i++) this.loops.push(this.loop(pool));
    }
    this.logger.log(
      Object.fromEntries(pools.map((p) => [p.kind, p.loops])),
      'database-queue workers started',
    );
  }

  /**
   * Once the steps registered with onBeforeStop are done, stops claiming and lets tasks in
   * flight finish. Tasks still running when the process dies stay `running` in the store
   * and are recovered at the next start.
   */
  async onModuleDestroy(): Promise<void> {
    await Promise.allSettled(this.beforeStop.map((step) => step()));
    this.running = false;
    for (const queue of QUEUES) for (const sleeper of [...this.wakers[queue]]) sleeper.wake();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.config.processing.workerShutdownGraceMs);
    });
    const outcome = await Promise.race([Promise.allSettled(this.loops), grace]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      this.logger.warn(
        { inFlight: this.inFlight.ids() },
        'shutdown grace period over; tasks still in flight will be retried at the next start',
      );
    }
  }

  private async loop(pool: DatabaseWorkerPool): Promise<void> {
    const { kind, queue } = pool;
    const reserve = kind === 'worker' ? this.reserve : null;
    while (this.running) {
      // Past the loops standard and batch work may hold, this claim takes priority work only.
      const lowerLane = reserve?.admitLower() ?? true;
      const filter: ClaimFilter = lowerLane ? pool.filter : { ...pool.filter, lanes: ['priority'] };
      let task: QueueTask | null = null;
      try {
        task = await this.driver.claim(queue, filter);
      } catch (error) {
        if (!this.running) {
          if (lowerLane) reserve?.releaseLowerLane();
          return;
        }
        this.logger.error({ err: error, queue, worker: kind }, 'queue claim failed');
      }
      const heldLowerLane = lowerLane && task !== null && task.lane !== 'priority';
      if (lowerLane && !heldLowerLane) reserve?.releaseLowerLane();
      if (!task) {
        await this.idle({ ...pool, filter }, lowerLane ? null : reserve);
        continue;
      }
      if (queue === 'cpu' && task.lane === 'priority') this.reserve.sawPriorityWork();
      this.emptyPolls.delete(kind);
      // There may be more (several retries came due at once): one sleeping loop of this
      // kind looks as well, and wakes the next if it finds work too.
      this.wakeOne(queue, kind);
      try {
        await this.execute(task);
      } finally {
        if (heldLowerLane) reserve?.releaseLowerLane();
      }
    }
  }

  private async execute(task: QueueTask): Promise<void> {
    const handler = this.handlers.get(task.kind);
    this.inFlight.begin(task.taskId);
    try {
      if (!handler) throw new Error(`no handler for task kind ${task.kind}`);
      await handler.handle(task);
    } catch (error) {
      if (!this.running || isStoreFailure(error)) {
        // Cut off by shutdown, or by a store that failed (the process is about to exit):
        // the task stays `running` and is retried at the next start.
        this.logger.warn({ taskId: task.taskId, kind: task.kind }, 'task interrupted by shutdown');
        return;
      }
      // A handler records expected failures itself; reaching here is a bug or a store
      // outage. The task is marked dead, never dropped silently.
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error({ err: error, taskId: task.taskId, kind: task.kind }, 'task failed');
      await this.driver.fail(task, message).catch((e: unknown) => {
        this.logger.error({ err: e, taskId: task.taskId }, 'could not record task failure');
      });
      await handler
        ?.exhausted?.(task, 'Internal error while processing the job')
        .catch((e: unknown) => {
          this.logger.error({ err: e, taskId: task.taskId }, 'could not record job failure');
        });
    } finally {
      this.inFlight.end(task.taskId);
    }
  }

  /**
   * One idle loop per kind polls every interval; the others sleep until woken, or until the
   * next task they may take is due when that is sooner than the poller's next look (a
   * retry the loop just scheduled, e.g. a webhook back-off). So the store is asked once per
   * interval and once per wake, not once per interval per loop. While the store holds
   * nothing for the kind, neither claimable nor scheduled, each empty poll doubles the
   * wait up to IDLE_POLL_BACKOFF_MAX intervals: enqueues in this process wake the loops at
   * once anyway (this process owns the queue), and an idle server's polls were most of its
   * statements, each taking a core from requests
   * (docs/decisions/0440-idle-queue-poll-backs-off.md).
   */
  private async idle(
    { kind, queue, filter }: DatabaseWorkerPool,
    reserved: PriorityReserve | null,
  ): Promise<void> {
    // A loop kept for priority work looks again when the reserve lapses, to take any lane.
    const lapse = reserved?.holdsFor() ?? null;
    if (lapse !== null) {
      const due = await this.nextDue(queue, filter);
      await this.sleep(queue, kind, Math.min(lapse, due === null ? lapse : due - Date.now()));
      return;
    }
    const pollerDueAt = this.polling.get(kind);
    if (pollerDueAt !== undefined) {
      const due = await this.nextDue(queue, filter);
      await this.sleep(queue, kind, due !== null && due < pollerDueAt ? due - Date.now() : null);
      return;
    }
    // Take the poller's role before awaiting, so the kind's other loops see it.
    const interval = this.config.processing.queuePollIntervalMs;
    this.polling.set(kind, Date.now() + interval);
    try {
      const due = await this.nextDue(queue, filter);
      const empty = due === null ? (this.emptyPolls.get(kind) ?? 0) + 1 : 0;
      this.emptyPolls.set(kind, empty);
      const fallback = interval * Math.min(2 ** Math.max(0, empty - 1), IDLE_POLL_BACKOFF_MAX);
      const wait = Math.min(fallback, due === null ? Infinity : due - Date.now());
      this.polling.set(kind, Date.now() + wait);
      await this.sleep(queue, kind, wait);
    } finally {
      this.polling.delete(kind);
    }
  }

  /** When the next task this kind may take becomes available (ms epoch), null if none. */
  private async nextDue(queue: QueueName, filter: ClaimFilter): Promise<number | null> {
    const next = await this.driver.nextAvailableAt(queue, filter).catch(() => null);
    // +1 ms: the store keeps microseconds, Date only milliseconds; waking a hair early
    // would find the task not yet claimable.
    return next ? next.getTime() + 1 : null;
  }

  /** Until woken, or `timeoutMs` (null: only a wake). */
  private sleep(queue: QueueName, kind: string, timeoutMs: number | null): Promise<void> {
    // Shutdown's wake-up may have come while this loop was reading the store.
    if (!this.running) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const sleeper: Sleeper = {
        kind,
        wake: () => {
          clearTimeout(timer);
          this.wakers[queue].delete(sleeper);
          resolve();
        },
      };
      const timer =
        timeoutMs === null ? undefined : setTimeout(sleeper.wake, Math.max(5, timeoutMs));
      this.wakers[queue].add(sleeper);
    });
  }

  private wakeOne(queue: QueueName, kind: string): void {
    for (const sleeper of this.wakers[queue]) {
      if (sleeper.kind === kind) {
        sleeper.wake();
        return;
      }
    }
  }
}

interface Sleeper {
  kind: string;
  wake(): void;
}
