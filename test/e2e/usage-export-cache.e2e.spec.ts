import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { UsageExportCache } from '../../src/usage/export/usage-export.cache.js';
import { seedAccount, SeededAccount } from '../support/accounts.js';
import { startTestApp, TestApp } from '../support/test-app.js';
import { daysAgo, usageEvent } from '../support/usage-events.js';
import { ingestAll } from '../support/usage-ingest.js';

let t: TestApp;
let acme: SeededAccount;
let other: SeededAccount;

beforeAll(async () => {
  t = await startTestApp();
  acme = await seedAccount(t.app, 'Acme');
  other = await seedAccount(t.app, 'Other');
  await ingestAll(t.app, [
    usageEvent({ orgId: acme.orgId, product: 'parse', credits: '10' }, { daysBack: 1 }),
  ]);
});

afterAll(async () => {
  await t.close();
});

/**
 * The end date given (the spec's day, taken once; the start follows from it): answers
 * compared with each other cover one period even when the service's default one moves on at
 * midnight between them.
 */
const ENDING = `endDate=${daysAgo(0)}`;

function exportWith(accountKey: string): Promise<Response> {
  return fetch(`${t.baseUrl}/api/v1/usage/export?${ENDING}&groupBy=product`, {
    headers: { authorization: `Bearer ${accountKey}` },
  });
}

async function exportBody(account: SeededAccount): Promise<string> {
  const res = await exportWith(account.accountKey);
  expect(res.status).toBe(200);
  return res.text();
}

describe('export result cache', () => {
  it('serves a repeated export from the cache until new usage of that org is committed', async () => {
    const cache = t.app.get(UsageExportCache);
    const first = await exportBody(acme);
    const cachedEntries = cache.size;
    expect(cachedEntries).toBeGreaterThan(0);
    expect(await exportBody(acme)).toBe(first);

    // Another org's usage leaves Acme's answer cached and correct.
    await ingestAll(t.app, [usageEvent({ orgId: other.orgId, product: 'split', credits: '1' })]);
    expect(await exportBody(acme)).toBe(first);

    const event = usageEvent(
      { orgId: acme.orgId, product: 'split', credits: '2.5' },
      { daysBack: 1 },
    );
    await ingestAll(t.app, [event]);
    const after = JSON.parse(await exportBody(acme)) as {
      data: { group: string; credits: number }[];
    };
    expect(after.data.map((r) => [r.group, r.credits])).toEqual([
      ['parse', 10],
      ['split', 2.5],
    ]);

    // A redelivery adds nothing, and the answer stays the same.
    const before = await exportBody(acme);
    await ingestAll(t.app, [event]);
    expect(await exportBody(acme)).toBe(before);
  });
});

describe('authentication in front of the cached answer', () => {
  it('refuses a revoked account key on the next export, though its token and answer were cached', async () => {
    const created = await fetch(`${t.baseUrl}/api/v1/account-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${acme.accountKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'dashboard tab' }),
    });
    expect(created.status).toBe(201);
    const key = (await created.json()) as { keyId: string; secret: string };
    const expected = await exportBody(acme);
    for (let i = 0; i < 3; i++) {
      const res = await exportWith(key.secret);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(expected);
    }

    const revoked = await fetch(`${t.baseUrl}/api/v1/account-keys/${key.keyId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${acme.accountKey}` },
    });
    expect(revoked.status).toBe(200);
    const refused = await exportWith(key.secret);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /invalid or revoked/,
    );
    // The key that revoked it is untouched.
    expect(await exportBody(acme)).toBe(expected);
  });
});
