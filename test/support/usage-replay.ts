import type { INestApplicationContext } from '@nestjs/common';
import { expect } from '@jest/globals';
import type { AppConfig } from '../../src/config/app-config.js';
import { APP_CONFIG } from '../../src/config/config.module.js';
import { normalizeToColumns } from '../../src/usage/ingestion/usage-event-columns.js';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import {
  USAGE_EVENT_WRITER,
  type UsageEventWriter,
} from '../../src/usage/core/usage-store.ports.js';
import { UsageWatermarks } from '../../src/usage/usage-watermarks.js';

/**
 * Writes events through the store's writer with a replay policy: events that lie months back
 * or across 2026's DST changes are beyond any window live ingestion keeps, and none may be
 * refused. The watermark moves as after an ingest.
 */
export async function writeReplayed(
  app: INestApplicationContext,
  events: UsageCloudEvent[],
): Promise<void> {
  const config = app.get<AppConfig>(APP_CONFIG);
  const { columns, rejected } = normalizeToColumns(events, new Date(), {
    maxAgeMs: Number.MAX_SAFE_INTEGER,
    maxFutureSkewMs: Number.MAX_SAFE_INTEGER,
    lateWindowMs: Number.MAX_SAFE_INTEGER,
  });
  expect(rejected).toEqual([]);
  const written = await app
    .get<UsageEventWriter>(USAGE_EVENT_WRITER)
    .writeBatch([columns], config.usage.cardinality);
  app.get(UsageWatermarks).advance(written.orgs, written.changedDays);
}
