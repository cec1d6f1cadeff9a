import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import type { Counter } from 'prom-client';
import { ApiError } from '../../common/api-error.js';
import { MetricsService } from '../../common/metrics/metrics.service.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import type { Lane, QueueName } from '../../config/queue.types.js';
import { laneTotal, QueueDepthService } from '../queue/queue-depth.service.js';

/** The spec's signal names; Prometheus names cannot hold dots (docs/operations.md maps them). */
const QUEUE_FULL_SIGNAL = 'service.admission.queue_full';
const DEPTH_READ_FAILED_SIGNAL = 'service.admission.depth_read_failed';
const REJECTED_LOG = 'queue_depth_cap.rejected';
const READ_FAILED_LOG = 'queue_depth_cap.read_failed';
/** A background store read of the live depth failed or passed the time-out (no request waits on it). */
const RECONCILE_FAILED_LOG = 'queue_depth.reconcile_failed';

interface AdmissionRequest {
  queue: QueueName;
  lane: Lane;
  /**
   * Sync (and parse) requests are gated; async ones are not
   * (docs/decisions/0040-admission-cap-scope-and-depth.md).
   */
  sync: boolean;
}

const NON_BATCH: readonly Lane[] = ['priority', 'standard'];

/**
 * The queue admission cap. A request whose destination queue already holds `cap` or more
 * active jobs (queued plus running) is refused with 503 QUEUE_FULL and `Retry-After: 30`
 * before any job exists. Batch-lane requests are neither counted nor gated by the cpu/io
 * caps, only by BATCH_MAX_QUEUE_DEPTH.
 *
 * The depth a request reads is QueueDepthService's in-memory one (microseconds, no I/O), so
 * the cap holds however busy the database is; a background loop reconciles it with the
 * stores every QUEUE_DEPTH_RECONCILE_MS, each store read bounded by the spec's 1 second.
 * A store read that fails or passes it is logged and counted as a reconcile failure; no
 * request waits on it and the live counts keep following transitions meanwhile. Once no
 * read has succeeded for QUEUE_DEPTH_STALE_MS the depth is unknown: that is the spec's
 * failed depth read, and the cap fails open as the spec says (the queue counts as empty,
 * each request let through so is logged and counted in depth_read_failed).
 */
@Injectable()
export class AdmissionService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('QueueDepthCap');
  private readonly queueFull: Counter<'queue' | 'lane' | 'signal'>;
  private readonly readFailed: Counter<'queue' | 'signal'>;
  private readonly reconcileFailed: Counter<'store'>;

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
    this.reconcileFailed = metrics.counter({
      name: 'service_admission_depth_reconcile_failed_total',
      help: 'background reads of a queue store for the live depth that failed or took over the time-out',
      labelNames: ['store'],
    });
  }

  private reconciler: NodeJS.Timeout | null = null;

  private get capped(): boolean {
    const caps = this.config.operations.admission;
    return caps.cpuMaxDepth !== null || caps.ioMaxDepth !== null || caps.batchMaxDepth !== null;
  }

  /** The first reconcile runs before the server listens, so the first request has a depth. */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.capped) return;
    await this.reconcile();
    this.reconciler = setInterval(
      () => void this.reconcile(),
      this.config.operations.admission.depthReconcileMs,
    );
    this.reconciler.unref();
  }

  onModuleDestroy(): void {
    if (this.reconciler) clearInterval(this.reconciler);
  }

  /** One reconcile of the live depth; a store that failed or timed out is logged and counted. */
  async reconcile(): Promise<void> {
    const failures = await this.depths.reconcile(
      this.config.operations.admission.depthReadTimeoutMs,
    );
    for (const { part, error } of failures) {
      this.reconcileFailed.inc({ store: part });
      this.logger.warn(
        { event: RECONCILE_FAILED_LOG, store: part, err: error },
        RECONCILE_FAILED_LOG,
      );
    }
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
    const combined = this.depths.live(request.queue, caps.depthStaleMs);
    if (combined === null) {
      this.readFailed.inc({ queue: request.queue, signal: DEPTH_READ_FAILED_SIGNAL });
      this.logger.warn(
        {
          event: READ_FAILED_LOG,
          signal: DEPTH_READ_FAILED_SIGNAL,
          queue: request.queue,
          lane: request.lane,
          err: `no successful queue depth read for ${caps.depthStaleMs} ms`,
        },
        READ_FAILED_LOG,
      );
      return () => undefined;
    }
    let depth = batch ? laneTotal(combined, ['batch']) : laneTotal(combined, NON_BATCH);
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
    throw ApiError.unavailable(
      'QUEUE_FULL',
      `The ${batch ? 'batch' : request.queue} queue is full; retry later`,
      caps.retryAfterSeconds,
      { queue: request.queue, lane: request.lane },
    );
  }
}
