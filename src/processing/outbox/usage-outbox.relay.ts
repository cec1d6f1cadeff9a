import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
  Optional,
} from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { USAGE_EVENT_SINK, type UsageEventSink } from '../../usage/usage-event.js';
import { UsageOutboxRepository } from './usage-outbox.repository.js';

const MAX_BACKOFF_MS = 30_000;

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

  constructor(
    private readonly outbox: UsageOutboxRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(USAGE_EVENT_SINK) private readonly sink?: UsageEventSink,
  ) {}

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
      await this.sink.publish(events);
    } catch (error) {
      this.failures++;
      const message = error instanceof Error ? error.message : String(error);
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
    await this.outbox.markSent(events.map((e) => e.id));
    return events.length === batchSize;
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.active;
  }
}
