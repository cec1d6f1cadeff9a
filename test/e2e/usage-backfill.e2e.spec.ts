import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { DuckDbService } from '../../src/database/duckdb.service.js';
import { UsageBackfillService } from '../../src/usage/import/usage-backfill.service.js';
import { UsageIngestService } from '../../src/usage/ingestion/usage-ingest.service.js';
import { MetadataKeyService } from '../../src/usage/metadata/metadata-key.service.js';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import { seedAccount } from '../support/accounts.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usageEventMix } from '../support/usage-event-mix.js';
import { daysAgo, usageEvent } from '../support/usage-events.js';
import { freshClickHouseDatabase, testClickHouseUrl } from '../support/usage-stores.js';
import { waitFor } from '../support/wait.js';

/*
 * Moving a store from DuckDB to ClickHouse (docs/operations.md): the backfill replays the
 * DuckDB events table into ClickHouse, and a server switched to ClickHouse then answers
 * every export exactly as the DuckDB one did.
 */

/** The credits of `events` (each id once) written on the UTC `day`, to the millionth. */
function creditsOfDay(events: UsageCloudEvent[], day: string): number {
  const byId = new Map(events.map((e) => [e.id, e]));
  let micros = 0;
  for (const event of byId.values()) {
    if (event.time.slice(0, 10) === day) micros += Math.round(Number(event.data.credits) * 1e6);
  }
  return micros / 1e6;
}

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
    // The alerts' webhooks are on this machine.
    const duck = await startTestApp({
      ...clickhouse,
      DATA_DIR: dataDir,
      FETCH_ALLOW_HOSTS: '127.0.0.1',
    });
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
    // Alert rules (one crossed today when made) and export marks move with the store.
    const orgApi = (t: TestApp, method: string, route: string, body?: unknown) =>
      fetch(`${t.baseUrl}/api/v1/orgs/${acme.orgId}/${route}`, {
        method,
        headers: {
          authorization: `Bearer ${acme.accountKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // A rule is read against the service's today when made: the day's total decides, the
    // day being the one the service saw (either, were midnight crossed during the request).
    const askedOn = daysAgo(0, Date.now());
    for (const threshold of ['1', '1000000000']) {
      const res = await orgApi(duck, 'POST', 'alerts', {
        measure: 'credits',
        period: 'day',
        threshold,
        webhookUrl: 'http://127.0.0.1:9/alerts',
      });
      expect(res.status).toBe(201);
    }
    const answeredOn = daysAgo(0, Date.now());
    const crossedOn = (day: string) => (creditsOfDay([...mix, ...tagged], day) >= 1 ? 1 : 0);
    const fired = await (await orgApi(duck, 'GET', 'fired-alerts')).json();
    const firings = (fired as { data: unknown[] }).data.length;
    expect([crossedOn(askedOn), crossedOn(answeredOn)]).toContain(firings);
    // The exports above marked the 60 days up to yesterday, after answering; the spec's
    // today too only where the service's day had moved on by then.
    const exportMarks = async () => {
      const [row] = await duck.app
        .get(DuckDbService)
        .all<{ n: bigint }>('SELECT count(*) AS n FROM usage_export_marks');
      return Number(row.n);
    };
    await waitFor('the export marks', async () => {
      const marks = await exportMarks();
      return marks === 60 || (marks === 61 && daysAgo(0, Date.now()) !== daysAgo(0));
    });
    const marked = await exportMarks();

    const report = await duck.app.get(UsageBackfillService).toClickHouse();
    expect(report).toMatchObject({
      to: 'clickhouse',
      read: 3300,
      inserted: 3300,
      duplicates: 0,
      exact: true,
      alerts: { rules: 2, firings },
      exportMarks: marked,
    });
    expect(report.target).toEqual(report.source);
    const again = await duck.app.get(UsageBackfillService).toClickHouse();
    expect(again).toMatchObject({
      read: 3300,
      inserted: 0,
      duplicates: 3300,
      exact: true,
      alerts: { rules: 0, firings: 0 },
    });
    await duck.close();

    const switched = await startTestApp({
      ...clickhouse,
      USAGE_STORE: 'clickhouse',
      DATA_DIR: dataDir,
    });
    apps.push(switched);
    expect(await exports(switched, acme.accountKey)).toEqual(before);
    const rules = (await (await orgApi(switched, 'GET', 'alerts')).json()) as { data: unknown[] };
    expect(rules.data).toHaveLength(2);
    // The copied crossing is listed (start-up may add yesterday's, evaluated once more).
    const firedAfter = (await (await orgApi(switched, 'GET', 'fired-alerts')).json()) as {
      data: unknown[];
    };
    expect(firedAfter.data).toEqual(expect.arrayContaining((fired as { data: unknown[] }).data));
  }, 180_000);
});
