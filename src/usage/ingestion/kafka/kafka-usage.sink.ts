import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/app-config.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import type { UsageCloudEvent, UsageEventSink } from '../../usage-event.js';
import { KafkaClients, USAGE_OUTBOX_WAITS } from './kafka-clients.service.js';

interface Pending {
  events: readonly UsageCloudEvent[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** How long publishes wait to share one produce request, and how many events one holds. */
const LINGER_MS = 5;
const MAX_EVENTS_PER_REQUEST = 2_000;

/**
 * The Kafka mode's usage sink: the processing plane's events go to the usage topic through
 * the idempotent producer. Concurrent publishes within a few milliseconds share one produce
 * request (the idempotent producer allows one request in flight), and each caller's promise
 * settles with the broker's acknowledgement of its own events.
 *
 * A missing usage topic refuses a send at once, naming it (`KafkaClients.toUsageTopic`).
 */
@Injectable()
export class KafkaUsageSink implements UsageEventSink, BeforeApplicationShutdown {
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clients: KafkaClients,
  ) {}

  publish(events: UsageCloudEvent[]): Promise<void> {
    if (!this.config.kafka) return Promise.reject(new Error('KAFKA_BROKERS is not set'));
    if (events.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.queue.push({ events, resolve, reject });
      const queued = this.queue.reduce((n, p) => n + p.events.length, 0);
      if (queued >= MAX_EVENTS_PER_REQUEST) this.flushSoon(0);
      else this.flushSoon(LINGER_MS);
    });
  }

  private flushSoon(delayMs: number): void {
    if (this.timer !== null) {
      if (delayMs > 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      const batch = this.queue;
      this.queue = [];
      this.flushing = this.flushing.then(() => this.send(batch));
    }, delayMs);
  }

  private async send(batch: Pending[]): Promise<void> {
    try {
      const events = batch.flatMap((p) => p.events);
      await this.clients.toUsageTopic((producer) => producer.publish(events), USAGE_OUTBOX_WAITS);
      for (const p of batch) p.resolve();
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
      const batch = this.queue;
      this.queue = [];
      this.flushing = this.flushing.then(() => this.send(batch));
    }
    await this.flushing;
  }
}
