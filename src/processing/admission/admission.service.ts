import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { ApiError } from '../../common/api-error.js';
import { MetricsService } from '../../common/metrics/metrics.service.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import type { Lane, QueueName } from '../queue/queue-driver.js';
import { laneTotal, QueueDepthService } from '../queue/queue-depth.service.js';
import { withTimeout } from '../queue/redis/redis-connection.js';

/** The spec's signal names; Prometheus names cannot hold dots (docs/operations.md maps them). */
export const QUEUE_FULL_SIGNAL = 'service.admission.queue_full';
export const DEPTH_READ_FAILED_SIGNAL = 'service.admission.depth_read_failed';
export const REJECTED_LOG = 'queue_depth_cap.rejected';
export const READ_FAILED_LOG = 'queue_depth_cap.read_failed';

export interface AdmissionRequest {
  queue: QueueName;
  lane: Lane;
  /** Sync (and parse) requests are gated; async ones are not (docs/decisions.md). */
  sync: boolean;
}

const NON_BATCH: readonly Lane[] = ['priority', 'standard'];

/**
 * The queue admission cap. A request whose destination queue already holds `cap` or more
 * active jobs (queued plus running) is refused with 503 QUEUE_FULL and `Retry-After: 30`
 * before any job exists. Batch-lane requests are neither counted nor gated by the cpu/io
 * caps, only by BATCH_MAX_QUEUE_DEPTH. The depth read fails open: past its 1-second
 * time-out, or on error, the queue counts as empty and the request is accepted.
 */
@Injectable()
export class AdmissionService {
  private readonly logger = new Logger('QueueDepthCap');
  private readonly queueFull: Counter<'queue' | 'lane' | 'signal'>;
  private readonly readFailed: Counter<'queue' | 'signal'>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly depths: QueueDepthService,
    metrics: MetricsService,
  ) {
    this.queueFull = metrics.counter({
      name: 'service_admission_queue_full_total',
      help: `${QUEUE_FULL_SIGNAL}: requests refused by the queue admission cap`,
      labelNames: ['queue', 'lane', 'signal'],
    });
    this.readFailed = metrics.counter({
      name: 'service_admission_depth_read_failed_total',
      help: `${DEPTH_READ_FAILED_SIGNAL}: queue depth reads that failed or took over the time-out (request accepted)`,
      labelNames: ['queue', 'signal'],
    });
  }

  /**
   * Requests admitted whose job is not committed yet, per queue and lane kind. The depth
   * read cannot see them, so without this a burst of simultaneous requests would all read
   * the same depth and overshoot the cap. Check and reservation run in one synchronous
   * step after the read, so they are atomic on the event loop.
   */
  private readonly reserved = new Map<string, number>();

  /**
   * Resolves when the request may be queued, with a release to call once its job is
   * committed (or the submission failed); throws the 503 QUEUE_FULL ApiError otherwise.
   */
  async admit(request: AdmissionRequest): Promise<() => void> {
    const caps = this.config.operations.admission;
    const batch = request.lane === 'batch';
    const cap = batch
      ? caps.batchMaxDepth
      : !request.sync
        ? null
        : request.queue === 'cpu'
          ? caps.cpuMaxDepth
          : caps.ioMaxDepth;
    if (cap === null) return () => undefined;
    let depth: number;
    try {
      const combined = await withTimeout(
        this.depths.read(request.queue),
        caps.depthReadTimeoutMs,
        'queue depth read',
      );
      depth = batch ? laneTotal(combined, ['batch']) : laneTotal(combined, NON_BATCH);
    } catch (error) {
      this.readFailed.inc({ queue: request.queue, signal: DEPTH_READ_FAILED_SIGNAL });
      this.logger.warn(
        {
          event: READ_FAILED_LOG,
          signal: DEPTH_READ_FAILED_SIGNAL,
          queue: request.queue,
          lane: request.lane,
          err: error instanceof Error ? error.message : String(error),
        },
        READ_FAILED_LOG,
      );
      return () => undefined;
    }
    const key = `${request.queue}:${batch ? 'batch' : 'main'}`;
    const reserved = this.reserved.get(key) ?? 0;
    if (depth + reserved < cap) {
      this.reserved.set(key, reserved + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        this.reserved.set(key, (this.reserved.get(key) ?? 1) - 1);
      };
    }
    depth += reserved;
    this.queueFull.inc({ queue: request.queue, lane: request.lane, signal: QUEUE_FULL_SIGNAL });
    this.logger.warn(
      {
        event: REJECTED_LOG,
        signal: QUEUE_FULL_SIGNAL,
        queue: request.queue,
        lane: request.lane,
        depth,
        cap,
      },
      REJECTED_LOG,
    );
    throw new ApiError(
      HttpStatus.SERVICE_UNAVAILABLE,
      'QUEUE_FULL',
      `The ${batch ? 'batch' : request.queue} queue is full; retry later`,
      { queue: request.queue, lane: request.lane },
      { 'Retry-After': String(caps.retryAfterSeconds) },
    );
  }
}
