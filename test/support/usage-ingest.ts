import { expect } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { UsageIngestService } from '../../src/usage/ingestion/usage-ingest.service.js';

/**
 * Ingests `events` through the app's ingest service, which answers once they are stored, and
 * fails the spec if it refused any: a spec's figures then rest on every event it sent.
 */
export async function ingestAll(
  app: INestApplicationContext,
  events: readonly unknown[],
): Promise<void> {
  const outcome = await app.get(UsageIngestService).ingest(events);
  expect(outcome.rejected).toEqual([]);
}
