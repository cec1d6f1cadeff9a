import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { seedAccount, SeededAccount } from '../support/accounts.js';
import { metricSum } from '../support/metrics.js';
import { startTestApp, TestApp } from '../support/test-app.js';
import { daysAgo, usageEvent } from '../support/usage-events.js';
import { ingestAll } from '../support/usage-ingest.js';

/**
 * The end date given (the spec's day, taken once; the start follows from it): answers
 * compared byte for byte are of one period even when the service's default one moves on at
 * midnight between the requests.
 */
const ENDING = `endDate=${daysAgo(0)}`;

let t: TestApp;
let acme: SeededAccount;
let other: SeededAccount;

beforeAll(async () => {
  t = await startTestApp();
  acme = await seedAccount(t.app, 'Acme');
  other = await seedAccount(t.app, 'Other');
  await ingestAll(t.app, [
    usageEvent({ orgId: acme.orgId, product: 'parse', credits: '10' }, { daysBack: 1 }),
    usageEvent(
      { orgId: acme.orgId, product: 'extract', feature: 'tables', credits: '2.5' },
      { daysBack: 2 },
    ),
  ]);
});

afterAll(async () => {
  await t.close();
});

interface RawAnswer {
  status: number;
  /** Header lines as sent, in order, without `date` (the second it was sent). */
  headers: string[];
  body: Buffer;
}

/** One GET as the bytes came: status, header lines in order, body. */
function rawGet(path: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${t.baseUrl}${path}`, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const lines: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i].toLowerCase() === 'date') continue;
          lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        }
        resolve({ status: res.statusCode ?? 0, headers: lines, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    request.on('error', reject);
  });
}

const earlyAnswers = () => metricSum(t.baseUrl, 'docproc_usage_export_early_answers_total');

/** The answer, and whether it came ahead of the pipeline. */
async function exportAs(
  key: string,
  search: string,
  extra: Record<string, string> = {},
): Promise<RawAnswer & { early: boolean }> {
  const before = await earlyAnswers();
  const answer = await rawGet(`/api/v1/usage/export?${search}`, {
    authorization: `Bearer ${key}`,
    'x-request-id': 'same-request-id',
    ...extra,
  });
  return { ...answer, early: (await earlyAnswers()) === before + 1 };
}

async function createAccountKey(owner: SeededAccount): Promise<{ keyId: string; secret: string }> {
  const res = await fetch(`${t.baseUrl}/api/v1/account-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.accountKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'second tab', defaultOrgId: owner.orgId }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { keyId: string; secret: string };
}

describe('cached exports answered ahead of the request pipeline', () => {
  it('answers a cached export with the same status, headers and bytes as the pipeline', async () => {
    const search = `${ENDING}&groupBy=feature&groupBy=product&product=parse&product=extract`;
    // A miss: the pipeline computes and caches the answer.
    const computed = await exportAs(acme.accountKey, search);
    expect(computed.status).toBe(200);
    expect(computed.early).toBe(false);
    // A key this process has not verified yet: the pipeline answers the cached body.
    const secondKey = await createAccountKey(acme);
    const cachedByPipeline = await exportAs(secondKey.secret, search);
    expect(cachedByPipeline.early).toBe(false);
    // Both keys now verified and the answer cached: answered early, byte for byte the same.
    for (const key of [acme.accountKey, secondKey.secret]) {
      const early = await exportAs(key, search);
      expect(early.early).toBe(true);
      expect(early.headers).toEqual(computed.headers);
      expect(early.body.equals(computed.body)).toBe(true);
    }
    expect(cachedByPipeline.headers).toEqual(computed.headers);
    expect(cachedByPipeline.body.equals(computed.body)).toBe(true);
    expect(computed.headers).toContain('x-request-id: same-request-id');
    expect(JSON.parse(computed.body.toString('utf8'))).toMatchObject({
      orgId: acme.orgId,
      groupBy: 'feature,product',
    });

    // Naming the org the key defaults to is the same answer, checked by the route's role rule.
    const named = await exportAs(acme.accountKey, `${search}&orgId=${acme.orgId}`);
    await exportAs(acme.accountKey, `${search}&orgId=${acme.orgId}`);
    const namedEarly = await exportAs(acme.accountKey, `${search}&orgId=${acme.orgId}`);
    expect(namedEarly.early).toBe(true);
    expect(namedEarly.headers).toEqual(named.headers);
    expect(namedEarly.body.equals(named.body)).toBe(true);
  });

  it('leaves refusals, CSV and unknown parameters to the pipeline, which answers as before', async () => {
    const search = `${ENDING}&groupBy=product`;
    await exportAs(acme.accountKey, search);
    expect((await exportAs(acme.accountKey, search)).early).toBe(true);

    const notMember = await exportAs(acme.accountKey, `${search}&orgId=${other.orgId}`);
    expect(notMember.status).toBe(403);
    expect(JSON.parse(notMember.body.toString('utf8'))).toMatchObject({
      error: { code: 'NOT_A_MEMBER' },
    });
    const unknown = await exportAs(acme.accountKey, `${search}&colour=blue`);
    expect(unknown.status).toBe(422);
    const invalid = await exportAs(acme.accountKey, `${search}&startDate=2026-02-30`);
    expect(invalid.status).toBe(400);
    const processingKey = await exportAs(acme.processingKey, search);
    expect(processingKey.status).toBe(401);
    const csv = await exportAs(acme.accountKey, search, { accept: 'text/csv' });
    expect(csv.status).toBe(200);
    expect(csv.headers).toContain('content-type: text/csv; charset=utf-8');
    expect([notMember, unknown, invalid, processingKey, csv].map((answer) => answer.early)).toEqual(
      [false, false, false, false, false],
    );
  });

  it('refuses a revoked key at once, though its token and the answer were answered early', async () => {
    const search = `${ENDING}&groupBy=product&fileType=pdf`;
    const key = await createAccountKey(acme);
    await exportAs(key.secret, search);
    const early = await exportAs(key.secret, search);
    expect(early.early).toBe(true);

    const revoked = await fetch(`${t.baseUrl}/api/v1/account-keys/${key.keyId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${acme.accountKey}` },
    });
    expect(revoked.status).toBe(200);
    const refused = await exportAs(key.secret, search);
    expect(refused.status).toBe(401);
    expect(refused.early).toBe(false);
    expect(JSON.parse(refused.body.toString('utf8'))).toMatchObject({
      error: { message: expect.stringMatching(/invalid or revoked/) as unknown },
    });
    // The key that revoked it still gets the cached answer early.
    await exportAs(acme.accountKey, search);
    expect((await exportAs(acme.accountKey, search)).early).toBe(true);
  });
});
