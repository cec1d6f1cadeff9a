import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Admin, Kafka } from 'kafkajs';
import type { AppConfig, KafkaConfig } from '../../../config/app-config.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import { createKafka } from './kafka-client.js';
import { UsageEventProducer } from './usage-event.producer.js';

/**
 * The process's Kafka client, its one idempotent producer (usage sink and dead-letter
 * sends) and its admin client, created on first use and closed at shutdown.
 */
@Injectable()
export class KafkaClients implements OnApplicationShutdown {
  private readonly logger = new Logger(KafkaClients.name);
  private kafkaClient: Kafka | null = null;
  private usageProducer: UsageEventProducer | null = null;
  private adminClient: Promise<Admin> | null = null;

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
