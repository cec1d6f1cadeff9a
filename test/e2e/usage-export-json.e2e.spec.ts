import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MetadataKeyService } from '../../src/usage/metadata/metadata-key.service.js';
import { seedAccount, SeededAccount } from '../support/accounts.js';
import { startTestApp, TestApp } from '../support/test-app.js';
import { USAGE_STORES, usageStoreEnv } from '../support/usage-stores.js';
import { daysAgo, usageEvent } from '../support/usage-events.js';
import { ingestAll } from '../support/usage-ingest.js';

describe.each(USAGE_STORES)('with the %s usage store', (store) => {
  let t: TestApp;
  let acme: SeededAccount;

  const AWKWARD = [
    'quo"te',
    'back\\slash',
    'tab\tnew\nline',
    'ctl\u0001',
    'é漢字😀',
    'ls\u2028ps',
    '</x>',
  ];

  beforeAll(async () => {
    t = await startTestApp(usageStoreEnv(store));
    acme = await seedAccount(t.app, 'Acme');
    await t.app.get(MetadataKeyService).enable(acme.orgId, 'team');
    const events = [
      ...AWKWARD.map((team) =>
        usageEvent(
          { orgId: acme.orgId, credits: '0.000001', async: true, metadata: { team } },
          { daysBack: 1 },
        ),
      ),
      usageEvent({ orgId: acme.orgId, product: 'parse', credits: '10' }, { daysBack: 1 }),
      usageEvent({ orgId: acme.orgId, product: 'split', credits: '12.5' }, { daysBack: 1 }),
    ];
    await ingestAll(t.app, events);
  });

  afterAll(async () => {
    await t.close();
  });

  async function body(params: Record<string, string>): Promise<string> {
    const res = await fetch(`${t.baseUrl}/api/v1/usage/export?${new URLSearchParams(params)}`, {
      headers: { authorization: `Bearer ${acme.accountKey}` },
    });
    expect(res.status).toBe(200);
    return res.text();
  }

  describe('JSON body rendered by the store', () => {
    it('escapes any group text so that it parses back to the same string', async () => {
      const parsed = JSON.parse(await body({ groupBy: 'metadata', metadataKey: 'team' })) as {
        data: { group: string }[];
      };
      expect(parsed.data.map((r) => r.group).sort()).toEqual([...AWKWARD, 'unknown'].sort());
    });

    it('writes credits as exact number literals without trailing zeros', async () => {
      const text = await body({ groupBy: 'product' });
      const day = daysAgo(1);
      expect(text).toContain(
        `{"date":"${day}","group":"classify","credits":0.000007,"requestCount":7}`,
      );
      expect(text).toContain(`{"date":"${day}","group":"parse","credits":10,"requestCount":1}`);
      expect(text).toContain(`{"date":"${day}","group":"split","credits":12.5,"requestCount":1}`);
    });

    it('renders an empty period as an empty data array', async () => {
      const text = await body({ startDate: '2001-01-01', endDate: '2001-01-31' });
      expect(JSON.parse(text)).toEqual({
        orgId: acme.orgId,
        startDate: '2001-01-01',
        endDate: '2001-01-31',
        groupBy: 'product',
        data: [],
      });
    });
  });
});
