import type { Redis, RedisOptions } from 'ioredis';
import { ioredis } from './redis-packages.js';

/**
 * An ioredis connection for BullMQ. `blocking`: workers (BullMQ requires
 * maxRetriesPerRequest null there); others fail a command after a few reconnect attempts
 * instead of queueing it forever while Redis is down.
 */
export function redisConnection(url: string, blocking: boolean): Redis {
  const options: RedisOptions = blocking
    ? { maxRetriesPerRequest: null, enableReadyCheck: false }
    : { maxRetriesPerRequest: 2, connectTimeout: 2000 };
  const client = new (ioredis().Redis)(url, { ...options, lazyConnect: false });
  // Connection errors surface through the commands that fail; without a listener ioredis
  // would print each reconnect attempt as an unhandled error.
  client.on('error', () => undefined);
  return client;
}

/** Rejects after `ms`; the pending operation is left to finish or fail on its own. */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
