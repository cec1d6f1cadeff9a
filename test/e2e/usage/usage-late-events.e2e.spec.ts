import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { seedAccount, type SeededAccount } from '../../support/accounts.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { daysAgo, usageEvent } from '../../support/usage-events.js';
import { USAGE_STORES, usageStoreEnv } from '../../support/usage-stores.js';

/*
 * The late-event window (USAGE_LATE_EVENT_WINDOW_DAYS, 90 days by default) on the operator's
 * path: `docproc-admin usage import` refuses an event older than the window, naming it,
 * unless the operator passes --allow-late; the live topic's refusal to the dead-letter
 * topic is shown by test/integration/usage-kafka-ingestion.spec.ts.
 */
describe.each(USAGE_STORES)('with the %s usage store', (store) => {
  let t: TestApp;
  let acme: SeededAccount;

  beforeAll(async () => {
    t = await startTestApp(usageStoreEnv(store));
    acme = await seedAccount(t.app, 'Acme');
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  /** Runs `usage import` through the running server's admin endpoint, as docproc-admin does. */
  async function usageImport(lines: unknown[], allowLate?: boolean) {
    const file = path.join(t.dataDir, `import-${Math.random().toString(36).slice(2)}.ndjson`);
    fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const { url, token } = JSON.parse(fs.readFileSync(path.join(t.dataDir, 'admin.json'), 'utf8'));
    const res = await fetch(`${url}/admin/v1/commands/usage.import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(allowLate === undefined ? { file } : { file, allowLate }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async function creditsOn(day: string): Promise<number | undefined> {
    const params = new URLSearchParams({ orgId: acme.orgId, startDate: day, endDate: day });
    const res = await fetch(`${t.baseUrl}/api/v1/usage/export?${params}`, {
      headers: { authorization: `Bearer ${acme.accountKey}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { credits: number }[] };
    return body.data[0]?.credits;
  }

  it('refuses an event older than the window with its reason, and loads it with --allow-late', async () => {
    const late = usageEvent(
      { orgId: acme.orgId, credits: '7.25' },
      { daysBack: 100, id: 'late-1' },
    );
    const recent = usageEvent({ orgId: acme.orgId, credits: '1' }, { daysBack: 2, id: 'recent-1' });

    const refused = await usageImport([late, recent]);
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({
      accepted: 1,
      rejected: 1,
      rejectedByReason: { late_event: 1 },
      rejections: [
        {
          line: 1,
          reason: 'late_event',
          detail: expect.stringContaining('late-event window of 90 days'),
        },
      ],
    });
    expect(await creditsOn(daysAgo(100))).toBeUndefined();

    const backfill = await usageImport([late, recent], true);
    expect(backfill.body).toMatchObject({ accepted: 1, duplicates: 1, rejected: 0 });
    expect(await creditsOn(daysAgo(100))).toBe(7.25);
    expect(await creditsOn(daysAgo(2))).toBe(1);
  });

  it('refuses a non-boolean --allow-late with 400 naming it', async () => {
    const res = await usageImport([], 'yes' as unknown as boolean);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('allowLate must be a boolean value');
  });
});
