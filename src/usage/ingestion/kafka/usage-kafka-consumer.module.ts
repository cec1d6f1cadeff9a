import { Module } from '@nestjs/common';
import { UsageModule } from '../../usage.module.js';
import { UsageKafkaConsumer } from './usage-kafka.consumer.js';
import { UsagePublisherTopic } from './usage-publisher-topic.js';

/**
 * The usage consumer, for the server only: `docproc-admin` loads UsageModule in its
 * application context and must never join the consumer group. A server whose consumer is
 * off checks the usage topic it publishes to instead (UsagePublisherTopic).
 */
@Module({
  imports: [UsageModule],
  providers: [UsageKafkaConsumer, UsagePublisherTopic],
  exports: [UsageKafkaConsumer],
})
export class UsageKafkaConsumerModule {}
