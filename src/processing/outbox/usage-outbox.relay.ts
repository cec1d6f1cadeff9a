import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
  Optional,
} from '@nestjs/common';
import { MetricsService } from '../../common/metrics/metrics.service.js';
import { ReadinessService } from '../../common/health/readiness.service.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { withTimeout } from '../queue/redis/redis-connection.js';
import { USAGE_EVENT_SINK, type UsageEventSink } from '../../usage/usage-event.js';
import { UsageOutboxRepository } from './usage-outbox.repository.js';

const MAX_BACKOFF_MS = 30_000;
/** A publish that has not been acknowledged by then counts as failed (a hung broker). */
const PUBLISH_TIMEOUT_MS = 15_000;

/** What the relay knows of the sink, shown on `/ready` as `usage_sink`. */
interface SinkState {
  state: 'up' | 'down' | 'unknown';
  since: Date | null;
  lastError: string | null;
  lastSentAt: Date | null;
  consecutiveFailures: number;
}

/**
 * Relays the usage outbox to the usage sink (Kafka or the in-process bus). An event is
 * marked sent only after `publish` resolved; while the sink fails the relay backs off and
 * retries the same events, so an outage delays usage and never loses it. The sink dedupes
 * on (source, id), which makes a resend after a crash between publish and mark harmless.
 */
@Injectable()
export class UsageOutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(UsageOutboxRelay.name);
  private timer: NodeJS.Timeout | null = null;
  private timerDueAt = 0;
  private running = false;
  private active: Promise<void> | null = null;
  private failures = 0;
  private readonly sinkState: SinkState = {
    state: 'unknown',
    since: null,
    lastError: null,
    lastSentAt: null,
    consecutiveFailures: 0,
  };

  constructor(
    private readonly outbox: UsageOutboxRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(USAGE_EVENT_SINK) private readonly sink?: UsageEventSink,
    @Optional() metrics?: MetricsService,
    @Optional() readiness?: ReadinessService,
  ) {
    // Backlog and age are read from the outbox at scrape time: during a sink outage they
    // grow while everything else looks healthy.
    const stats = () => this.outbox.backlogStats().catch(() => null);
    metrics?.gauge({
      name: 'docproc_usage_outbox_backlog',
      help: 'Usage events in the outbox not yet acknowledged by the usage sink',
      async collect() {
        const s = await stats();
        if (s) this.set(s.count);
      },
    });
    metrics?.gauge({
      name: 'docproc_usage_outbox_oldest_age_seconds',
      help: 'Age of the oldest usage event not yet acknowledged by the usage sink (0 when none)',
      async collect() {
        const s = await stats();
        if (s) this.set(s.oldestAgeSeconds);
      },
    });
    // The sink's state is shown, not gated on: while it is down, processing goes on and
    // the outbox keeps the events, so this instance should still take traffic.
    readiness?.register({
      name: 'usage_sink',
      readiness: () => ({
        ready: true,
        detail: {
          state: this.sinkState.state,
          since: this.sinkState.since?.toISOString() ?? null,
          lastSentAt: this.sinkState.lastSentAt?.toISOString() ?? null,
          consecutiveFailures: this.sinkState.consecutiveFailures,
          ...(this.sinkState.lastError ? { lastError: this.sinkState.lastError } : {}),
        },
      }),
    });
  }

  private sinkUp(): void {
    const s = this.sinkState;
    if (s.state === 'down') {
      this.logger.log(
        { downSince: s.since?.toISOString(), failures: s.consecutiveFailures },
        'usage sink recovered; outbox backlog is being sent',
      );
    }
    if (s.state !== 'up') s.since = new Date();
    s.state = 'up';
    s.lastError = null;
    s.consecutiveFailures = 0;
    s.lastSentAt = new Date();
  }

  private sinkDown(message: string): void {
    const s = this.sinkState;
    if (s.state !== 'down') {
      s.since = new Date();
      this.logger.error(
        { err: message },
        'usage sink down: usage events wait in the outbox until it is back',
      );
    }
    s.state = 'down';
    s.lastError = message;
    s.consecutiveFailures++;
  }

  onApplicationBootstrap(): void {
    if (!this.sink) {
      this.logger.warn('no USAGE_EVENT_SINK provided: usage events stay in the outbox');
      return;
    }
    this.running = true;
    this.schedule(0);
  }

  /**
   * Called after a job's completion committed: its event leaves within the linger instead of
   * at the next interval. A send already due sooner is kept, so steady completions cannot
   * postpone it.
   */
  kick(): void {
    if (!this.running || this.failures > 0) return;
    const linger = this.config.processing.outboxRelayLingerMs;
    if (this.timer && this.timerDueAt <= Date.now() + linger) return;
    this.schedule(linger);
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDueAt = Date.now() + delayMs;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.active) return;
      this.active = this.relay()
        .then((more) => {
          const backoff = Math.min(
            MAX_BACKOFF_MS,
            this.config.processing.outboxRelayIntervalMs * 2 ** this.failures,
          );
          this.schedule(
            this.failures > 0 ? backoff : more ? 0 : this.config.processing.outboxRelayIntervalMs,
          );
        })
        .finally(() => {
          this.active = null;
        });
    }, delayMs);
  }

  /** One batch; true when a full batch went out (more may be waiting). */
  async relay(): Promise<boolean> {
    if (!this.sink) return false;
    const batchSize = this.config.processing.outboxBatchSize;
    let events;
    try {
      events = await this.outbox.unsent(batchSize);
    } catch (error) {
      this.logger.error({ err: error }, 'reading the usage outbox failed');
      this.failures++;
      return false;
    }
    if (!events.length) return false;
    try {
      await withTimeout(this.sink.publish(events), PUBLISH_TIMEOUT_MS, 'usage sink publish');
    } catch (error) {
      this.failures++;
      const message = error instanceof Error ? error.message : String(error);
      this.sinkDown(message);
      this.logger.warn(
        { err: error, events: events.length, failures: this.failures },
        'usage sink unavailable; will retry',
      );
      await this.outbox
        .markFailed(
          events.map((e) => e.id),
          message,
        )
        .catch(() => undefined);
      return false;
    }
    this.failures = 0;
    this.sinkUp();
    await this.outbox.markSent(events.map((e) => e.id));
    return events.length === batchSize;
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.active;
  }
}
