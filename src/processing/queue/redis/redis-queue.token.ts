import type { QueuePort } from '../queue-port.js';
import type { RedisQueueClient } from './redis-queue.client.js';

/** The BullMQ producer of this process; null when REDIS_URL is not set. */
export const REDIS_QUEUE_CLIENT = Symbol('REDIS_QUEUE_CLIENT');
export type OptionalRedisQueueClient = RedisQueueClient | null;

/**
 * The BullMQ queue as a QueuePort (BullQueueDriver over REDIS_QUEUE_CLIENT): every add to
 * Redis of the API process goes through it; null when REDIS_URL is not set.
 */
export const REDIS_QUEUE = Symbol('REDIS_QUEUE');
export type OptionalRedisQueue = QueuePort | null;
