import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import {
  type ReadinessCheck,
  type ReadinessReport,
  ReadinessService,
} from '../../common/health/readiness.service.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { DuckDbService } from '../../database/duckdb.service.js';
import { LegacyWorkers } from '../queue/db/legacy-workers.service.js';
import { JobEvents } from './job-events.js';

/** Seconds a client refused or cut by a shutdown is told to wait: about one restart. */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 10;

/**
 * The first part of a graceful stop of the processing API, in this order:
 *
 * 1. Stop admitting: new submissions are refused with 503 `SHUTTING_DOWN` and Retry-After
 *    (before any job exists), and `/ready` turns not ready so a load balancer sends the
 *    next ones elsewhere. Reads (`GET /job`, results) are still answered.
 * 2. Let the sync requests in flight get their answer: the workers, downloads and executors
 *    keep running until every waiting request's job finished, for at most
 *    `SHUTDOWN_DRAIN_MS`.
 * 3. Release the requests still waiting: they answer 503 `SHUTTING_DOWN` with their job id,
 *    the job kept for polling (a job still running may finish within the workers' grace
 *    period; one unfinished at the restart is queued again and finishes, JobReconciler).
 *
 * Whatever stops work (the database-queue workers, the input downloads) awaits `drain()`
 * first; every caller shares the one drain.
 */
@Injectable()
export class SyncRequestDrain implements ReadinessCheck {
  readonly name = 'shutdown';
  private readonly logger = new Logger(SyncRequestDrain.name);
  private draining: Promise<void> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: JobEvents,
    private readonly db: DuckDbService,
    readiness: ReadinessService,
    workers: LegacyWorkers,
  ) {
    readiness.register(this);
    workers.onBeforeStop(() => this.drain());
  }

  get admitting(): boolean {
    return this.draining === null;
  }

  /** Refuses a new submission once the stop began. */
  assertAdmitting(): void {
    if (this.admitting) return;
    throw ApiError.unavailable(
      'SHUTTING_DOWN',
      'The service is shutting down and takes no new jobs; retry shortly',
      SHUTDOWN_RETRY_AFTER_SECONDS,
    );
  }

  readiness(): ReadinessReport {
    if (this.admitting) return { ready: true, detail: { state: 'serving' } };
    return {
      ready: false,
      detail: { state: 'draining', syncRequestsWaiting: this.events.waiting },
    };
  }

  /** Steps 1 to 3 above; resolves once the requests still waiting were released. */
  drain(): Promise<void> {
    this.draining ??= this.run();
    return this.draining;
  }

  private async run(): Promise<void> {
    const waiting = this.events.waiting;
    // A store that failed cannot record a finished job: nothing is worth waiting for.
    const drainMs = this.db.fatalFailure ? 0 : this.config.shutdownDrainMs;
    if (waiting > 0 && drainMs > 0) {
      this.logger.log({ waiting, drainMs }, 'shutdown: waiting for sync requests in flight');
      const idle = await this.events.whenIdle(drainMs);
      if (!idle) {
        this.logger.warn(
          { waiting: this.events.waiting },
          'shutdown drain over; sync requests still waiting answer 503 SHUTTING_DOWN',
        );
      }
    }
    this.events.releaseAll();
  }
}
