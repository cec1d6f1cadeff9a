import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DuckDbService } from '../../../database/duckdb.service.js';
import { LiveDepth } from '../live-depth.js';
import { EnqueueOptions, QueueDepth, QueueTask } from '../queue-task.js';
import { ClaimFilter, Lane, LANES, QueueName } from '../../../config/queue.types.js';

interface TaskRow {
  task_id: string;
  queue: QueueName;
  lane: Lane;
  kind: string;
  payload: string;
  attempts: number;
  max_attempts: number;
  enqueued_at: Date;
}

/** How many claimable tasks a claim reads, in case other loops take the first ones. */
const CLAIM_CANDIDATES = 4;
const LANE_ORDER = `CASE lane WHEN 'priority' THEN 0 WHEN 'standard' THEN 1 ELSE 2 END`;

/**
 * The deep-work mark rides in the stored payload under this key (no column for it: the
 * queue_tasks schema predates the worker kinds); handlers never see it (toTask strips it).
 */
const DEEP_KEY = '__deep';
/** SQL: whether a `queue_tasks` row is deep work. */
export const IS_DEEP_TASK = `coalesce(json_extract_string(payload, '$.${DEEP_KEY}') = 'true', false)`;

function storedPayload(payload: unknown, deep: boolean): string {
  if (!deep) return JSON.stringify(payload);
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new TypeError('deep work needs an object payload');
  }
  return JSON.stringify({ ...payload, [DEEP_KEY]: true });
}

function handlerPayload(stored: string): unknown {
  const payload = JSON.parse(stored) as unknown;
  if (typeof payload === 'object' && payload !== null && DEEP_KEY in payload) {
    delete (payload as Record<string, unknown>)[DEEP_KEY];
  }
  return payload;
}

/** The filter as SQL conditions (` AND ...`), its parameters numbered from `firstParam`. */
function filterSql(filter: ClaimFilter, firstParam: number): { sql: string; params: string[] } {
  const conditions: string[] = [];
  const params: string[] = [];
  if (filter.lanes) {
    if (filter.lanes.length === 0) conditions.push('false');
    else {
      const placeholders = filter.lanes.map((lane, i) => {
        params.push(lane);
        return `$${firstParam + i}`;
      });
      conditions.push(`lane IN (${placeholders.join(', ')})`);
    }
  }
  if (filter.deep === 'only') conditions.push(IS_DEEP_TASK);
  if (filter.deep === 'exclude') conditions.push(`NOT ${IS_DEEP_TASK}`);
  return { sql: conditions.map((c) => ` AND ${c}`).join(''), params };
}

function toTask(row: TaskRow): QueueTask {
  return {
    taskId: row.task_id,
    queue: row.queue,
    lane: row.lane,
    kind: row.kind,
    payload: handlerPayload(row.payload),
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    enqueuedAt: row.enqueued_at,
  };
}

/**
 * The legacy "database queue"'s store: tasks are rows of `queue_tasks`. Claims are single
 * UPDATEs on the serialized writer connection, so two workers never get the same task.
 * No write here joins a caller's transaction: a task is added after its durable record
 * (job, webhook delivery) committed, and dropped after its outcome committed (see
 * DatabaseQueue); re-running a task whose record is already final is a no-op there.
 */
@Injectable()
export class DatabaseQueueRepository {
  /** Queued/running counts kept in step with this driver's writes (the admission cap's depth). */
  readonly live = new LiveDepth();

  constructor(private readonly db: DuckDbService) {}

  async enqueue<P>(
    queue: QueueName,
    kind: string,
    payload: P,
    options: EnqueueOptions,
  ): Promise<string> {
    const taskId = randomUUID();
    const sql = `INSERT INTO queue_tasks (task_id, seq, queue, lane, kind, payload, state, attempts,
        max_attempts, available_at, enqueued_at, tenant)
      VALUES ($1, nextval('queue_tasks_seq'), $2, $3, $4, $5, 'queued', 0, $6,
        COALESCE(CAST($7 AS TIMESTAMPTZ), now()), now(), $8)`;
    const params = [
      taskId,
      queue,
      options.lane,
      kind,
      storedPayload(payload, options.deep === true),
      options.maxAttempts ?? 1,
      options.availableAt ? options.availableAt.toISOString() : null,
      options.tenant ?? null,
    ];
    await this.db.run(sql, params);
    this.live.add(queue, options.lane, 1, 0);
    return taskId;
  }

  /**
   * The next task: of the best lane, the tenant's with the fewest tasks of the queue
   * running, oldest first. Workers are shared fairly between tenants (a task without a
   * tenant is its own): an organization that queued many large tasks holds at most the
   * workers no one else is waiting for, and another's task is the next one taken once a
   * worker frees up, not the one after that organization's whole backlog.
   */
  async claim(queue: QueueName, filter: ClaimFilter = {}): Promise<QueueTask | null> {
    const where = filterSql(filter, 2);
    // The candidates come from a pooled read, so idle workers polling never queue up on
    // the single writer connection every other write of the process shares; the writer
    // then only flips one row found by its key. A candidate another loop took first (and
    // perhaps already re-queued for a later retry) fails the state and time checks.
    const candidates = await this.db.all<{ task_id: string }>(
      `SELECT q.task_id FROM queue_tasks q
       LEFT JOIN (SELECT tenant, count(*) AS running FROM queue_tasks
                  WHERE queue = $1 AND state = 'running' AND tenant IS NOT NULL
                  GROUP BY tenant) r ON r.tenant = q.tenant
       WHERE q.queue = $1 AND q.state = 'queued' AND q.available_at <= now()${where.sql}
       ORDER BY ${LANE_ORDER}, coalesce(r.running, 0), q.seq LIMIT ${CLAIM_CANDIDATES}`,
      [queue, ...where.params],
    );
    for (const { task_id } of candidates) {
      const rows = await this.db.runReturning<TaskRow>(
        `UPDATE queue_tasks SET state = 'running', attempts = attempts + 1, claimed_at = now()
         WHERE task_id = $1 AND state = 'queued' AND available_at <= now()
         RETURNING task_id, queue, lane, kind, CAST(payload AS VARCHAR) AS payload, attempts,
           max_attempts, enqueued_at`,
        [task_id],
      );
      if (rows.length) {
        const task = toTask(rows[0]);
        this.live.add(queue, task.lane, -1, 1);
        return task;
      }
    }
    return null;
  }

  /** Removes a finished task. */
  async complete(task: QueueTask): Promise<void> {
    await this.db.run(`DELETE FROM queue_tasks WHERE task_id = $1`, [task.taskId]);
    this.live.add(task.queue, task.lane, 0, -1);
  }

  /** Puts a task back for another attempt at `retryAt`, or marks it dead without one. */
  async fail(task: QueueTask, error: string, retryAt?: Date): Promise<void> {
    const sql = retryAt
      ? `UPDATE queue_tasks SET state = 'queued', last_error = $2, available_at = CAST($3 AS TIMESTAMPTZ),
           max_attempts = GREATEST(max_attempts, attempts + 1) WHERE task_id = $1`
      : `UPDATE queue_tasks SET state = 'dead', last_error = $2 WHERE task_id = $1`;
    const params = retryAt ? [task.taskId, error, retryAt.toISOString()] : [task.taskId, error];
    await this.db.run(sql, params);
    this.live.add(task.queue, task.lane, retryAt ? 1 : 0, -1);
  }

  async depth(queue: QueueName): Promise<QueueDepth> {
    const rows = await this.db.all<{ lane: Lane; state: string; n: bigint }>(
      `SELECT lane, state, count(*) AS n FROM queue_tasks
       WHERE queue = $1 AND state IN ('queued', 'running') GROUP BY lane, state`,
      [queue],
    );
    const lanes = Object.fromEntries(
      LANES.map((l) => [l, { queued: 0, running: 0 }]),
    ) as QueueDepth['lanes'];
    let active = 0;
    for (const row of rows) {
      const n = Number(row.n);
      if (row.state === 'queued') lanes[row.lane].queued = n;
      else lanes[row.lane].running = n;
      active += n;
    }
    return { queue, active, lanes };
  }

  async drained(): Promise<boolean> {
    const rows = await this.db.all<{ n: bigint }>(
      `SELECT count(*) AS n FROM queue_tasks WHERE state IN ('queued', 'running')`,
    );
    return Number(rows[0].n) === 0;
  }

  /**
   * At start-up: tasks left running by a dead process go back to the queue while they have
   * attempts left; the exhausted ones are returned (and marked dead) for their handlers.
   */
  async recoverInterrupted(): Promise<QueueTask[]> {
    return this.db.transaction(async (tx) => {
      await tx.run(
        `UPDATE queue_tasks SET state = 'queued', last_error = 'interrupted by a restart'
         WHERE state = 'running' AND attempts < max_attempts`,
      );
      const exhausted = await tx.all<TaskRow>(
        `UPDATE queue_tasks SET state = 'dead', last_error = 'interrupted by a restart'
         WHERE state = 'running'
         RETURNING task_id, queue, lane, kind, CAST(payload AS VARCHAR) AS payload, attempts,
           max_attempts, enqueued_at`,
      );
      return exhausted.map(toTask);
    });
  }

  /**
   * Earliest time a queued task the filter allows becomes available, so idle workers can
   * sleep until then (work for other worker kinds must not wake them).
   */
  async nextAvailableAt(queue: QueueName, filter: ClaimFilter = {}): Promise<Date | null> {
    const where = filterSql(filter, 2);
    const rows = await this.db.all<{ at: Date | null }>(
      `SELECT min(available_at) AS at FROM queue_tasks
       WHERE queue = $1 AND state = 'queued'${where.sql}`,
      [queue, ...where.params],
    );
    return rows[0]?.at ?? null;
  }
}
