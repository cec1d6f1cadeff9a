import { Module } from '@nestjs/common';
import { UsageModule } from '../../usage.module.js';
import { UsageKafkaConsumer } from './usage-kafka.consumer.js';

/**
 * The usage consumer, for the server only: `docproc-admin` loads UsageModule in its
 * application context and must never join the consumer group.
 */
@Module({
  imports: [UsageModule],
  providers: [UsageKafkaConsumer],
  exports: [UsageKafkaConsumer],
})
export class UsageKafkaConsumerModule {}
