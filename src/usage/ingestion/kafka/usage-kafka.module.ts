import { Module } from '@nestjs/common';
import { KafkaClients } from './kafka-clients.service.js';
import { UsagePublishService } from './usage-publish.service.js';

/**
 * Kafka clients of the usage plane without the consumer: the server's UsageModule builds
 * on it, and `docproc-admin usage publish` uses it alone.
 */
@Module({
  providers: [KafkaClients, UsagePublishService],
  exports: [KafkaClients, UsagePublishService],
})
export class UsageKafkaModule {}
