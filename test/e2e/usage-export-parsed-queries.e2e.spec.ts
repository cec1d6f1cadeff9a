import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { seedAccount, SeededAccount } from '../support/accounts.js';
import { metricSum } from '../support/metrics.js';
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
    usageEvent({ orgId: other.orgId, product: 'split', credits: '3' }, { daysBack: 1 }),
  ]);
});

afterAll(async () => {
  await t.close();
});

const earlyAnswers = () => metricSum(t.baseUrl, 'docproc_usage_export_early_answers_total');

interface Answer {
  status: number;
  body: string;
  early: boolean;
}

async function exportAs(account: SeededAccount, search: string): Promise<Answer> {
  const before = await earlyAnswers();
  const res = await fetch(`${t.baseUrl}/api/v1/usage/export?${search}`, {
    headers: { authorization: `Bearer ${account.accountKey}` },
  });
  const body = await res.text();
  return { status: res.status, body, early: (await earlyAnswers()) === before + 1 };
}

/** Asked until the answer is cached and this process holds every fact: then answered early. */
async function earlyAnswer(account: SeededAccount, search: string): Promise<Answer> {
  await exportAs(account, search);
  await exportAs(account, search);
  const answer = await exportAs(account, search);
  expect(answer.status).toBe(200);
  expect(answer.early).toBe(true);
  return answer;
}

const groups = (body: string) =>
  (JSON.parse(body) as { orgId: string; data: { group: string; credits: number }[] }).data.map(
    (row) => [row.group, row.credits],
  );

describe('a repeated export URL reuses its parsed query, never another caller’s answer', () => {
  // Dates given: the parse of this query string does not depend on the day, so it is kept.
  const search = `startDate=${daysAgo(7)}&endDate=${daysAgo(0)}&groupBy=product`;

  it('answers the same query string for two orgs with each org’s own figures', async () => {
    const acmeAnswer = await earlyAnswer(acme, search);
    const otherAnswer = await earlyAnswer(other, search);
    expect(JSON.parse(acmeAnswer.body)).toMatchObject({ orgId: acme.orgId });
    expect(groups(acmeAnswer.body)).toEqual([['parse', 10]]);
    expect(JSON.parse(otherAnswer.body)).toMatchObject({ orgId: other.orgId });
    expect(groups(otherAnswer.body)).toEqual([['split', 3]]);
    // Alternating callers on the one URL: each still gets its own org's answer, early.
    for (const [account, expected] of [
      [acme, acmeAnswer.body],
      [other, otherAnswer.body],
      [acme, acmeAnswer.body],
    ] as const) {
      const answer = await exportAs(account, search);
      expect(answer.early).toBe(true);
      expect(answer.body).toBe(expected);
    }

    // A URL naming Acme, answered early for Acme's key, is refused to Other's by the pipeline.
    const named = `${search}&orgId=${acme.orgId}`;
    expect((await earlyAnswer(acme, named)).body).toBe(acmeAnswer.body);
    const refused = await exportAs(other, named);
    expect(refused.status).toBe(403);
    expect(refused.early).toBe(false);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'NOT_A_MEMBER' } });
  });

  it('answers from the store again after new usage of the org is stored', async () => {
    const before = await earlyAnswer(acme, search);
    const otherBefore = await earlyAnswer(other, search);
    await ingestAll(t.app, [
      usageEvent({ orgId: acme.orgId, product: 'extract', credits: '2.5' }, { daysBack: 2 }),
    ]);

    const after = await exportAs(acme, search);
    expect(after.status).toBe(200);
    expect(after.early).toBe(false);
    expect(groups(after.body)).toEqual([
      ['extract', 2.5],
      ['parse', 10],
    ]);
    expect(after.body).not.toBe(before.body);
    // The new answer is what is answered early from then on; Other's stays as it was.
    expect((await earlyAnswer(acme, search)).body).toBe(after.body);
    const otherAfter = await exportAs(other, search);
    expect(otherAfter.early).toBe(true);
    expect(otherAfter.body).toBe(otherBefore.body);
  });
});
