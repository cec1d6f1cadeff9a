import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { ClickHouseService } from '../../../src/usage/clickhouse/clickhouse.service.js';
import { seedAccount, type SeededAccount } from '../../support/accounts.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { waitFor } from '../../support/wait.js';
import { daysAgo, usageEvent } from '../../support/usage-events.js';
import { USAGE_STORES, usageStoreEnv } from '../../support/usage-stores.js';
import { ingestAll } from '../../support/usage-ingest.js';

/*
 * Days whose figures changed after an export first included them: a late event and a
 * correction of an exported day list it; replays, and changes of days never exported, do not.
 */
describe.each(USAGE_STORES)('revised days with the %s usage store', (store) => {
  let t: TestApp;
  let acme: SeededAccount;

  beforeAll(async () => {
    t = await startTestApp(usageStoreEnv(store));
    acme = await seedAccount(t.app, 'Acme');
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  const get = (path: string) =>
    fetch(`${t.baseUrl}${path}`, { headers: { authorization: `Bearer ${acme.accountKey}` } });

  /** The org's days marked exported, in the store the marks live in. */
  async function markedDays(): Promise<number> {
    if (store === 'duckdb') {
      const [row] = await t.app
        .get(DuckDbService)
        .all<{ n: bigint }>('SELECT count(*) AS n FROM usage_export_marks WHERE org_id = $1', [
          acme.orgId,
        ]);
      return Number(row.n);
    }
    const clickhouse = t.app.get(ClickHouseService);
    const [row] = await clickhouse.rows<{ n: string }>(
      `SELECT uniqExact(day) AS n FROM ${clickhouse.database}.usage_export_marks
       WHERE org_id = {org:String}`,
      { org: acme.orgId },
    );
    return Number(row.n);
  }

  async function revised(): Promise<string[]> {
    const res = await get(
      `/api/v1/orgs/${acme.orgId}/revised-days?startDate=${daysAgo(20)}&endDate=${daysAgo(0)}`,
    );
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { date: string }[] }).data.map((d) => d.date);
  }

  it('lists exported days changed afterwards by a late event or a correction, not replays', async () => {
    const original = usageEvent({ orgId: acme.orgId, credits: '5' }, { id: 'rev-1', daysBack: 4 });
    const other = usageEvent({ orgId: acme.orgId, credits: '1' }, { id: 'rev-2', daysBack: 6 });
    await ingestAll(t.app, [original, other]);
    // Exports days 10 to 5 ago, then 4 to 3 ago (CSV): day 6 and day 4 are exported.
    for (const [start, end, accept] of [
      [daysAgo(10), daysAgo(5), 'application/json'],
      [daysAgo(4), daysAgo(3), 'text/csv'],
    ]) {
      const res = await fetch(
        `${t.baseUrl}/api/v1/usage/export?startDate=${start}&endDate=${end}`,
        { headers: { authorization: `Bearer ${acme.accountKey}`, accept } },
      );
      expect(res.status).toBe(200);
      await res.text();
    }
    // Marks are written after the answer: the 8 days 10 to 3 days ago.
    await waitFor('the export marks', async () => (await markedDays()) === 8);
    await ingestAll(t.app, [original, other]);
    expect(await revised()).toEqual([]);

    // A correction of day 4, a late event on day 6, a new event on day 15 (never exported).
    await ingestAll(t.app, [
      { ...original, data: { ...original.data, credits: '3', version: 2 } },
      usageEvent({ orgId: acme.orgId, credits: '2' }, { id: 'rev-3', daysBack: 6 }),
      usageEvent({ orgId: acme.orgId, credits: '2' }, { id: 'rev-4', daysBack: 15 }),
    ]);
    expect(await revised()).toEqual([daysAgo(6), daysAgo(4)]);

    const bad = await get(`/api/v1/orgs/${acme.orgId}/revised-days?startDate=x&endDate=y`);
    expect(bad.status).toBe(400);
  });
});
