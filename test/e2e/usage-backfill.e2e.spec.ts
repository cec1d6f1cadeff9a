import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { UsageBackfillService } from '../../src/usage/import/usage-backfill.service.js';
import { UsageIngestService } from '../../src/usage/ingestion/usage-ingest.service.js';
import { MetadataKeyService } from '../../src/usage/metadata/metadata-key.service.js';
import { seedAccount } from '../support/accounts.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usageEventMix } from '../support/usage-event-mix.js';
import { daysAgo, usageEvent } from '../support/usage-events.js';
import { freshClickHouseDatabase, testClickHouseUrl } from '../support/usage-stores.js';

/*
 * Moving a store from DuckDB to ClickHouse (docs/operations.md): the backfill replays the
 * DuckDB events table into ClickHouse, and a server switched to ClickHouse then answers
 * every export exactly as the DuckDB one did.
 */

const apps: TestApp[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-backfill-'));

afterAll(async () => {
  for (const app of apps) await app.close().catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const QUERIES: Record<string, string>[] = [
  ...['product', 'feature', 'api_key', 'file_type'].map((groupBy) => ({ groupBy })),
  { groupBy: 'metadata', metadataKey: 'team' },
  { groupBy: 'product', metadataKey: 'team' },
  { groupBy: 'feature', product: 'classify' },
];

async function exports(t: TestApp, accountKey: string): Promise<string[]> {
  const bodies: string[] = [];
  for (const query of QUERIES) {
    const params = new URLSearchParams({ ...query, startDate: daysAgo(60), endDate: daysAgo(0) });
    const res = await fetch(`${t.baseUrl}/api/v1/usage/export?${params}`, {
      headers: { authorization: `Bearer ${accountKey}` },
    });
    expect(res.status).toBe(200);
    bodies.push(await res.text());
  }
  return bodies;
}

describe('usage backfill --to clickhouse', () => {
  it('copies every event exactly, runs again without counting anything twice, and the ClickHouse server exports the same', async () => {
    const clickhouse = {
      CLICKHOUSE_URL: testClickHouseUrl(),
      CLICKHOUSE_DATABASE: freshClickHouseDatabase(),
    };
    const duck = await startTestApp({ ...clickhouse, DATA_DIR: dataDir });
    apps.push(duck);
    const acme = await seedAccount(duck.app, 'Acme');
    await duck.app.get(MetadataKeyService).enable(acme.orgId, 'team');
    const ingest = duck.app.get(UsageIngestService);
    const mix = usageEventMix([acme.orgId], 3000, { seed: 9, days: 50, prefix: 'backfill' });
    const tagged = Array.from({ length: 300 }, (_, i) =>
      usageEvent(
        {
          orgId: acme.orgId,
          async: true,
          credits: `${i}.000123`,
          metadata: { team: `t${i % 4}`, n: i },
        },
        { daysBack: i % 40 },
      ),
    );
    await ingest.ingest([...mix, ...tagged, ...mix.slice(0, 100)]);
    const before = await exports(duck, acme.accountKey);

    const report = await duck.app.get(UsageBackfillService).toClickHouse();
    expect(report).toMatchObject({
      to: 'clickhouse',
      read: 3300,
      inserted: 3300,
      duplicates: 0,
      exact: true,
    });
    expect(report.target).toEqual(report.source);
    const again = await duck.app.get(UsageBackfillService).toClickHouse();
    expect(again).toMatchObject({ read: 3300, inserted: 0, duplicates: 3300, exact: true });
    await duck.close();

    const switched = await startTestApp({
      ...clickhouse,
      USAGE_STORE: 'clickhouse',
      DATA_DIR: dataDir,
    });
    apps.push(switched);
    expect(await exports(switched, acme.accountKey)).toEqual(before);
  }, 180_000);
});
