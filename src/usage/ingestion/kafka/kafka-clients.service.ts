import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Admin, Kafka } from 'kafkajs';
import type { AppConfig, KafkaConfig } from '../../../config/app-config.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import { createKafka } from './kafka-client.js';
import {
  isUnknownTopicError,
  MissingTopicError,
  TopicPresence,
  usageTopicOf,
} from './kafka-topics.js';
import { UsageEventProducer } from './usage-event.producer.js';

/** What waits while the usage topic a process publishes to is missing. */
export const USAGE_OUTBOX_WAITS =
  'usage events wait in the outbox until it exists (nothing is lost)';

/**
 * The process's Kafka client, its one idempotent producer (usage sink and dead-letter
 * sends), its admin client, created on first use and closed at shutdown, and what its
 * publishing last listed of the usage topic (shared by the sink and the publisher's
 * readiness check, so a missing topic is logged once and refused at once by both).
 */
@Injectable()
export class KafkaClients implements OnApplicationShutdown {
  private readonly logger = new Logger(KafkaClients.name);
  private kafkaClient: Kafka | null = null;
  private usageProducer: UsageEventProducer | null = null;
  private adminClient: Promise<Admin> | null = null;
  private usagePresence: TopicPresence | null = null;

  constructor(@Inject(APP_CONFIG) private readonly appConfig: AppConfig) {}

  get config(): KafkaConfig {
    if (!this.appConfig.kafka) throw new Error('Kafka is not configured (KAFKA_BROKERS)');
    return this.appConfig.kafka;
  }

  kafka(): Kafka {
    this.kafkaClient ??= createKafka(this.config);
    return this.kafkaClient;
  }

  producer(): UsageEventProducer {
    this.usageProducer ??= new UsageEventProducer(this.kafka(), this.config.usageTopic);
    return this.usageProducer;
  }

  usageTopicPresence(): TopicPresence {
    this.usagePresence ??= new TopicPresence(
      () => this.config,
      async () => (await this.admin()).listTopics(),
      this.logger,
      (config) => [usageTopicOf(config)],
      () => USAGE_OUTBOX_WAITS,
    );
    return this.usagePresence;
  }

  /**
   * Runs `send` (a produce to the usage topic) once the topic is known to exist. A topic
   * not listed yet, or found missing, is listed first (one metadata request, no retries
   * when the broker answers): a missing one is refused at once with `MissingTopicError`,
   * naming it, its setting, the fix and `consequence`, where kafkajs would retry its
   * metadata for about 40 s and then fail with "This server does not host this
   * topic-partition", naming none, while every later send waited behind it. A topic deleted
   * after it was listed fails the send as kafkajs does, and is listed again: the sends after
   * it are refused at once until it exists.
   */
  async toUsageTopic<T>(
    send: (producer: UsageEventProducer) => Promise<T>,
    consequence: string,
  ): Promise<T> {
    const presence = this.usageTopicPresence();
    const usageTopic = usageTopicOf(this.config);
    if (!presence.listed || presence.isMissing(usageTopic.topic)) {
      await presence.require(usageTopic.topic, consequence);
    }
    try {
      return await send(this.producer());
    } catch (error) {
      if (!isUnknownTopicError(error)) throw error;
      await presence.check().catch(() => undefined);
      throw new MissingTopicError(usageTopic, consequence, { cause: error });
    }
  }

  admin(): Promise<Admin> {
    this.adminClient ??= (async () => {
      const admin = this.kafka().admin();
      await admin.connect();
      return admin;
    })().catch((error: unknown) => {
      this.adminClient = null;
      throw error;
    });
    return this.adminClient;
  }

  /** Creates the usage and dead-letter topics when missing (a no-op when they exist). */
  async ensureTopics(): Promise<void> {
    const { usageTopic, deadLetterTopic, topicPartitions } = this.config;
    const admin = await this.admin();
    const existing = new Set(await admin.listTopics());
    const missing = [usageTopic, deadLetterTopic].filter((t) => !existing.has(t));
    if (missing.length === 0) return;
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((topic) => ({ topic, numPartitions: topicPartitions })),
    });
    this.logger.log(`created Kafka topics ${missing.join(', ')}`);
  }

  async onApplicationShutdown(): Promise<void> {
    const admin = this.adminClient;
    this.adminClient = null;
    await Promise.allSettled([
      this.usageProducer?.disconnect(),
      admin?.then((a) => a.disconnect()),
    ]);
  }
}
