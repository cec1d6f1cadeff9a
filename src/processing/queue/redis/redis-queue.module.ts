import { Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG } from '../../../config/config.module.js';
import type { AppConfig } from '../../../config/app-config.js';
import { DatabaseQueueRepository } from '../db/database-queue.repository.js';
import { QueueDepthService } from '../queue-depth.service.js';
import { RolloutService } from '../rollout.service.js';
import { LegacyQueueRepository } from '../db/legacy-queue.repository.js';
import { RedisDispatchRepository } from './redis-dispatch.repository.js';
import { RedisQueueClient } from './redis-queue.client.js';
import { BullQueueDriver } from './bull-queue.driver.js';
import {
  REDIS_QUEUE,
  REDIS_QUEUE_CLIENT,
  type OptionalRedisQueue,
  type OptionalRedisQueueClient,
} from './redis-queue.token.js';

@Injectable()
class RedisQueueClientCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS_QUEUE_CLIENT) private readonly client: OptionalRedisQueueClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.client?.close();
  }
}

/**
 * What the processing plane needs from operations at submission time (rollout routing,
 * queue depths) without depending on the operations module itself. The
 * database driver here is a second instance of the stateless DuckDB queue driver, used for
 * depth reads only.
 */
@Module({
  providers: [
    {
      provide: REDIS_QUEUE_CLIENT,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): OptionalRedisQueueClient =>
        config.operations.redis ? new RedisQueueClient(config.operations.redis) : null,
    },
    {
      provide: REDIS_QUEUE,
      inject: [REDIS_QUEUE_CLIENT],
      useFactory: (client: OptionalRedisQueueClient): OptionalRedisQueue =>
        client ? new BullQueueDriver(client) : null,
    },
    RedisQueueClientCloser,
    DatabaseQueueRepository,
    RolloutService,
    RedisDispatchRepository,
    LegacyQueueRepository,
    QueueDepthService,
  ],
  exports: [
    REDIS_QUEUE_CLIENT,
    REDIS_QUEUE,
    DatabaseQueueRepository,
    RolloutService,
    RedisDispatchRepository,
    LegacyQueueRepository,
    QueueDepthService,
  ],
})
export class RedisQueueModule {}
