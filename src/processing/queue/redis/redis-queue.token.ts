import type { RedisQueueClient } from './redis-queue.client.js';

/** The BullMQ producer of this process; null when REDIS_URL is not set. */
export const REDIS_QUEUE_CLIENT = Symbol('REDIS_QUEUE_CLIENT');
export type OptionalRedisQueueClient = RedisQueueClient | null;
