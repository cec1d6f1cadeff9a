import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { ReadinessReport } from '../../common/health/readiness.service.js';

type State = 'connecting' | 'up' | 'down';

/**
 * What `/ready` says of the new queue's Redis, read from the connection the API process
 * holds open for the workers' results: `up` once it is ready, `down` from its first error
 * or close until it is ready again (ioredis reconnects by itself). Requests routed to
 * Redis meanwhile go to the database queue when legacy workers run, so the instance stays
 * ready and only shows the state; with legacy workers off they would get 503
 * QUEUE_UNAVAILABLE, so it is not ready. A Redis that hangs without closing its connections
 * shows as up: its enqueues time out (`REDIS_ENQUEUE_TIMEOUT_MS`) and fall back the same way.
 */
export class NewQueueHealth {
  readonly name = 'new_queue';
  private readonly logger = new Logger('NewQueueHealth');
  private state: State = 'connecting';
  private since = new Date();
  private lastError: string | null = null;

  constructor(
    connection: Redis,
    private readonly databaseQueueFallback: boolean,
  ) {
    connection.on('ready', () => this.up());
    connection.on('error', (error: Error) => this.down(error.message));
    connection.on('close', () => this.down('connection closed'));
  }

  readiness(): ReadinessReport {
    return {
      ready: this.state === 'up' || this.databaseQueueFallback,
      detail: {
        state: this.state,
        since: this.since.toISOString(),
        ...(this.lastError && this.state !== 'up' ? { lastError: this.lastError } : {}),
        fallback: this.databaseQueueFallback ? 'database queue' : 'none (503 QUEUE_UNAVAILABLE)',
      },
    };
  }

  private up(): void {
    if (this.state === 'down') {
      this.logger.log({ downSince: this.since.toISOString() }, 'new queue (Redis) reachable again');
    }
    if (this.state !== 'up') this.since = new Date();
    this.state = 'up';
  }

  private down(reason: string): void {
    this.lastError = reason;
    if (this.state === 'down') return;
    this.logger.error(
      { reason, fallback: this.databaseQueueFallback ? 'database queue' : 'none' },
      'new queue (Redis) unreachable',
    );
    this.state = 'down';
    this.since = new Date();
  }
}
