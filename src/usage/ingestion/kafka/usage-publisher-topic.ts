import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import type { AppConfig } from '../../../config/app-config.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import {
  ReadinessCheck,
  ReadinessReport,
  ReadinessService,
} from '../../../common/health/readiness.service.js';
import { KafkaClients } from './kafka-clients.service.js';

/**
 * A server that publishes usage to Kafka without consuming it (`KAFKA_CONSUMER_ENABLED=false`:
 * the consumer runs in the process owning the usage store) checks its usage topic as the
 * consumer does (docs/decisions/0527-*): created at start when `KAFKA_CREATE_TOPICS` is on,
 * listed at start and every `KAFKA_LAG_INTERVAL_MS` while it is off or the topic was found
 * missing. A missing topic fails `/ready` at once naming it, its setting and the fix (events
 * wait in the outbox meanwhile), and the usage sink, which shares what this check listed,
 * refuses its sends at once with the same words instead of after kafkajs' ~40 s of retries.
 * A broker that cannot be reached does not fail the check: `usage_sink` shows it, and the
 * outbox keeps the events.
 */
@Injectable()
export class UsagePublisherTopic
  implements OnApplicationBootstrap, BeforeApplicationShutdown, ReadinessCheck
{
  readonly name = 'usagePublisher';
  private readonly logger = new Logger(UsagePublisherTopic.name);
  private timer: NodeJS.Timeout | null = null;
  private listed = false;
  private lastError: string | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clients: KafkaClients,
    private readonly readinessService: ReadinessService,
  ) {}

  /** Shared with the usage sink: a send refuses at once what this check found missing. */
  private get topics() {
    return this.clients.usageTopicPresence();
  }

  onApplicationBootstrap(): void {
    const kafka = this.config.kafka;
    if (!kafka || kafka.consumerEnabled) return;
    this.readinessService.register(this);
    void this.check();
    this.timer = setInterval(() => void this.check(), kafka.lagIntervalMs);
    this.timer.unref();
  }

  private async check(): Promise<void> {
    const { createTopics } = this.clients.config;
    // With creation on, once there it stays (as for the consumer, deletions go unseen).
    if (this.listed && createTopics && this.topics.missing.length === 0) return;
    try {
      if (createTopics) await this.clients.ensureTopics();
      await this.topics.check();
      this.listed = true;
      this.lastError = null;
    } catch (error) {
      if (this.lastError === null) {
        this.logger.warn(`could not list the Kafka topics: ${String(error)}`);
      }
      this.lastError = String(error);
    }
  }

  readiness(): ReadinessReport {
    const topic = this.clients.config.usageTopic;
    const missing = this.topics.readinessFailure();
    if (missing) return { ready: false, detail: { topic, ...missing } };
    const state = this.listed ? 'exists' : 'not listed yet';
    return {
      ready: true,
      detail: { topic, state, ...(this.lastError ? { lastError: this.lastError } : {}) },
    };
  }

  beforeApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.readinessService.unregister(this.name);
  }
}
