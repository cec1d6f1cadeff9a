import { Module } from '@nestjs/common';
import { ProcessingModule } from '../processing/processing.module.js';
import { QueueOperationsController } from './queue-metrics/queue-operations.controller.js';
import { RedisResultsConsumer } from '../processing/jobs/redis-results.consumer.js';
import { LegacyDisableGuard } from './upgrade/legacy-disable.guard.js';
import { LegacyWatchdogService } from './watchdog/legacy-watchdog.service.js';

/**
 * The operations plane in the HTTP process: queue metrics, drain status, rollout report,
 * the new queue's results consumer, the legacy-disable guard and the database-queue
 * workers' watchdog. It reads the queues through QueueStatus; routing lives in RedisQueueModule,
 * which ProcessingModule re-exports.
 */
@Module({
  imports: [ProcessingModule],
  controllers: [QueueOperationsController],
  providers: [RedisResultsConsumer, LegacyDisableGuard, LegacyWatchdogService],
})
export class OperationsModule {}
