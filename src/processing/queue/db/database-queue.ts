import { Injectable, Logger } from '@nestjs/common';
import { DatabaseQueueRepository } from './database-queue.repository.js';
import { type CommandType, type QueueCommand, validateCommand } from '../queue-command.js';
import { InvalidCommandError } from '../../core/processing-error.js';
import type {
  AddOptions,
  QueuedWork,
  QueuePort,
  Unsubscribe,
  WorkHandler,
  WorkOptions,
} from '../queue-port.js';
import type { QueueTask } from '../queue-task.js';
import { LegacyWorkers } from './legacy-workers.service.js';

/**
 * The database queue behind the QueuePort: `add` writes a `queue_tasks` row and wakes an
 * idle loop; `work` hands each claimed task of the kind, its payload validated, to the
 * handler and then drops the task (or schedules the retry the handler asked for). A task
 * whose payload does not validate is marked dead with the reason, never run on a cast.
 */
@Injectable()
export class DatabaseQueue implements QueuePort {
  private readonly logger = new Logger(DatabaseQueue.name);

  constructor(
    private readonly store: DatabaseQueueRepository,
    private readonly workers: LegacyWorkers,
  ) {}

  async add<P extends object>(command: QueueCommand<P>, options: AddOptions): Promise<void> {
    const { queue, ...stored } = options;
    await this.store.enqueue(queue, command.kind, command.payload, stored);
    this.workers.notify(queue, options.lane);
  }

  work<P extends object>(
    type: CommandType<P>,
    handler: WorkHandler<P>,
    options: WorkOptions<P> = {},
  ): Unsubscribe {
    return this.workers.register({
      kind: type.kind,
      handle: async (task) => {
        const work = this.validated(type, task);
        if (work instanceof InvalidCommandError) {
          await this.store.fail(task, work.message);
          return;
        }
        const result = await handler(work);
        if (result) await this.store.fail(task, result.error, result.retryAt);
        else await this.store.complete(task);
      },
      exhausted: options.exhausted
        ? async (task, reason) => {
            const work = this.validated(type, task);
            if (!(work instanceof InvalidCommandError)) await options.exhausted!(work, reason);
          }
        : undefined,
    });
  }

  /** The task as its handler's work, or why its payload does not validate. */
  private validated<P extends object>(
    type: CommandType<P>,
    task: QueueTask,
  ): QueuedWork<P> | InvalidCommandError {
    try {
      const payload = validateCommand(type, task.payload);
      return {
        id: task.taskId,
        kind: task.kind,
        payload,
        queue: task.queue,
        lane: task.lane,
        attempts: task.attempts,
        maxAttempts: task.maxAttempts,
        enqueuedAt: task.enqueuedAt,
      };
    } catch (error) {
      if (!(error instanceof InvalidCommandError)) throw error;
      this.logger.error({ taskId: task.taskId, kind: task.kind, err: error }, error.message);
      return error;
    }
  }
}
