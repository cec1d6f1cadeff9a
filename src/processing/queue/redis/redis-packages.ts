import type * as BullMQ from 'bullmq';
import type * as IORedis from 'ioredis';
import { onFirstUse } from '../../../common/on-first-use.js';

/** BullMQ and ioredis, loaded by the first Redis queue client (none without `REDIS_URL`). */
export const bullmq = onFirstUse<typeof BullMQ>('bullmq');
export const ioredis = onFirstUse<typeof IORedis>('ioredis');
