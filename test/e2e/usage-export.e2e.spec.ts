import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import { ApiKeyService } from '../../src/accounts/keys/api-key.service.js';
import { MetadataKeyService } from '../../src/usage/metadata/metadata-key.service.js';
import { seedAccount, SeededAccount } from '../support/accounts.js';
import { startTestApp, TestApp } from '../support/test-app.js';
import { USAGE_STORES, usageStoreEnv } from '../support/usage-stores.js';
import { daysAgo, usageEvent } from '../support/usage-events.js';
import {
  microsToText,
  parseExportBody,
  ReferenceQuery,
  referenceExport,
  toMicros,
} from '../support/usage-reference.js';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import { ingestAll } from '../support/usage-ingest.js';

describe.each([...USAGE_STORES, 'clickhouse-cluster' as const])(
  'with the %s usage store',
  (store) => {
    let t: TestApp;
    let acme: SeededAccount;

    function exportUrl(params: Record<string, string | string[]>): string {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(params)) {
        for (const v of Array.isArray(value) ? value : [value]) search.append(name, v);
      }
      return `${t.baseUrl}/api/v1/usage/export?${search}`;
    }

    async function getExport(
      params: Record<string, string | string[]>,
      key = acme.accountKey,
      accept?: string,
    ) {
      const res = await fetch(exportUrl(params), {
        headers: { authorization: `Bearer ${key}`, ...(accept ? { accept } : {}) },
      });
      return { status: res.status, headers: res.headers, text: await res.text() };
    }

    async function exportRows(params: Record<string, string | string[]>, key = acme.accountKey) {
      const res = await getExport(params, key);
      expect(res.status).toBe(200);
      return parseExportBody(res.text);
    }

    beforeAll(async () => {
      t = await startTestApp(usageStoreEnv(store));
      acme = await seedAccount(t.app, 'Acme');
    });

    afterAll(async () => {
      await t.close();
    });

    describe('authentication (spec Authentication 3-5)', () => {
      it('answers 401 with WWW-Authenticate when the key is missing', async () => {
        const res = await fetch(`${t.baseUrl}/api/v1/usage/export`);
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
        expect(await res.json()).toEqual({
          error: { code: 'UNAUTHORIZED', message: expect.any(String) },
        });
      });

      it('answers 401 for an invalid key', async () => {
        expect((await getExport({}, 'dpa_nope_nope')).status).toBe(401);
        expect((await getExport({}, `${acme.accountKey}x`)).status).toBe(401);
      });

      it('answers 401 for a processing key: it is not an account key', async () => {
        expect((await getExport({}, acme.processingKey)).status).toBe(401);
      });

      it('answers 403 for an organization the caller does not belong to, existing or not', async () => {
        const other = await seedAccount(t.app, 'Other');
        const res = await getExport({ orgId: other.orgId });
        expect(res.status).toBe(403);
        expect(JSON.parse(res.text).error.code).toBe('NOT_A_MEMBER');
        expect((await getExport({ orgId: 'org_does_not_exist' })).status).toBe(403);
      });
    });

    describe('organization resolution', () => {
      it('uses the key default org, and requires orgId for a multi-org user without one', async () => {
        const accounts = t.app.get(AccountsService);
        const keys = t.app.get(ApiKeyService);
        const user = await accounts.createUser('multi@example.com');
        const orgA = await accounts.createOrg('A');
        const orgB = await accounts.createOrg('B');
        await accounts.addMember(orgA.orgId, user.userId);
        await accounts.addMember(orgB.orgId, user.userId);
        const plainKey = (await keys.createAccountKey(user.userId)).secret;
        const defaultedKey = (
          await keys.createAccountKey(user.userId, { defaultOrgId: orgB.orgId })
        ).secret;

        const ambiguous = await getExport({}, plainKey);
        expect(ambiguous.status).toBe(400);
        expect(JSON.parse(ambiguous.text).error.code).toBe('ORG_ID_REQUIRED');
        expect(JSON.parse((await getExport({ orgId: orgA.orgId }, plainKey)).text).orgId).toBe(
          orgA.orgId,
        );
        expect(JSON.parse((await getExport({}, defaultedKey)).text).orgId).toBe(orgB.orgId);
      });
    });

    describe('parameter validation (400)', () => {
      it.each([
        ['an invalid groupBy', { groupBy: 'color' }, 'INVALID_GROUP_BY'],
        ['groupBy=metadata without metadataKey', { groupBy: 'metadata' }, 'METADATA_KEY_REQUIRED'],
        ['metadataValue without metadataKey', { metadataValue: 'x' }, 'METADATA_KEY_REQUIRED'],
        ['a malformed startDate', { startDate: '2026/01/01' }, 'INVALID_DATE'],
        ['an impossible endDate', { endDate: '2026-02-30' }, 'INVALID_DATE'],
        [
          'a reversed range',
          { startDate: '2026-03-02', endDate: '2026-03-01' },
          'INVALID_DATE_RANGE',
        ],
        [
          'a range over 366 days',
          { startDate: '2025-01-01', endDate: '2026-01-02' },
          'DATE_RANGE_TOO_LONG',
        ],
        [
          'a metadataKey not enabled',
          { groupBy: 'metadata', metadataKey: 'never' },
          'METADATA_KEY_NOT_ENABLED',
        ],
      ])('refuses %s', async (_name, params, code) => {
        const res = await getExport(params);
        expect(res.status).toBe(400);
        expect(JSON.parse(res.text).error).toEqual(
          expect.objectContaining({ code, message: expect.any(String) }),
        );
      });

      it('accepts exactly 366 days', async () => {
        expect((await getExport({ startDate: '2025-01-01', endDate: '2026-01-01' })).status).toBe(
          200,
        );
      });

      it('refuses a key that ingestion marked identifier-like, even once enabled', async () => {
        const org = await seedAccount(t.app, 'Ids');
        await t.app.get(MetadataKeyService).enable(org.orgId, 'documentId');
        // Usable at first (and remembered as usable by the export's cache)...
        const before = await getExport(
          { groupBy: 'metadata', metadataKey: 'documentId' },
          org.accountKey,
        );
        expect(before.status).toBe(200);
        const events = Array.from({ length: 300 }, (_, i) =>
          usageEvent({ orgId: org.orgId, async: true, metadata: { documentId: `doc-${i}` } }),
        );
        await ingestAll(t.app, events);
        const res = await getExport(
          { groupBy: 'metadata', metadataKey: 'documentId' },
          org.accountKey,
        );
        expect(res.status).toBe(400);
        expect(JSON.parse(res.text).error.code).toBe('METADATA_KEY_REJECTED');
        // Its usage is still stored and counted.
        const totals = await exportRows({}, org.accountKey);
        expect(totals.rows.reduce((n, r) => n + r.requestCount, 0)).toBe(300);
      });

      it('refuses a key as soon as it is disabled, after exports used it', async () => {
        const org = await seedAccount(t.app, 'Disabled');
        await t.app.get(MetadataKeyService).enable(org.orgId, 'team');
        const query = { groupBy: 'metadata', metadataKey: 'team' };
        expect((await getExport(query, org.accountKey)).status).toBe(200);
        const disabled = await fetch(`${t.baseUrl}/api/v1/orgs/${org.orgId}/metadata-keys/team`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${org.accountKey}` },
        });
        expect(disabled.status).toBeLessThan(300);
        const res = await getExport(query, org.accountKey);
        expect(res.status).toBe(400);
        expect(JSON.parse(res.text).error.code).toBe('METADATA_KEY_NOT_ENABLED');
      });
    });

    describe('defaults and shape', () => {
      it('defaults to the last 30 days by product and orders by date then group', async () => {
        const org = await seedAccount(t.app, 'Shape');
        await ingestAll(t.app, [
          usageEvent(
            { orgId: org.orgId, product: 'parse', feature: 'parse', credits: '1.25' },
            { daysBack: 1 },
          ),
          usageEvent({ orgId: org.orgId, product: 'classify', credits: '0.5' }, { daysBack: 1 }),
          usageEvent({ orgId: org.orgId, product: 'classify', credits: '0.5' }, { daysBack: 3 }),
          usageEvent({ orgId: org.orgId, product: 'classify', credits: '9' }, { daysBack: 45 }),
        ]);
        const askedOn = daysAgo(0, Date.now());
        const { body, rows } = await exportRows({}, org.accountKey);
        const answeredOn = daysAgo(0, Date.now());
        // The default end is the service's today, read while it answered: a run crossing
        // midnight sees either day, and the start follows from the end the service chose.
        const endDate = String(body.endDate);
        expect([askedOn, answeredOn]).toContain(endDate);
        expect(body).toEqual(
          expect.objectContaining({
            orgId: org.orgId,
            startDate: daysAgo(30, Date.parse(endDate)),
            endDate,
            groupBy: 'product',
          }),
        );
        expect(rows).toEqual([
          { date: daysAgo(3), group: 'classify', credits: '0.5', requestCount: 1 },
          { date: daysAgo(1), group: 'classify', credits: '0.5', requestCount: 1 },
          { date: daysAgo(1), group: 'parse', credits: '1.25', requestCount: 1 },
        ]);
      });

      it('counts an event delivered twice once', async () => {
        const org = await seedAccount(t.app, 'Dupes');
        const event = usageEvent({ orgId: org.orgId, credits: '3.333333' });
        await ingestAll(t.app, [event, event]);
        await ingestAll(t.app, [event]);
        const { rows } = await exportRows({}, org.accountKey);
        expect(rows).toEqual([
          { date: daysAgo(0), group: 'classify', credits: '3.333333', requestCount: 1 },
        ]);
      });
    });

    describe('grouping by async metadata (spec rules 1-10)', () => {
      let org: SeededAccount;
      const long = 'é'.repeat(250) + '😀'.repeat(10);

      beforeAll(async () => {
        org = await seedAccount(t.app, 'Meta');
        const metadataKeys = t.app.get(MetadataKeyService);
        await metadataKeys.enable(org.orgId, 'team');
        await metadataKeys.enable(org.orgId, 'label');
        const e = (data: Parameters<typeof usageEvent>[0], daysBack = 2) =>
          usageEvent(data, { daysBack });
        await ingestAll(t.app, [
          e({ orgId: org.orgId, async: true, credits: '1.5', metadata: { team: 'risk' } }),
          e({
            orgId: org.orgId,
            async: true,
            credits: '2',
            product: 'parse',
            feature: 'parse',
            metadata: { team: 'risk' },
          }),
          e({ orgId: org.orgId, async: true, credits: '4', metadata: { team: 'ops' } }),
          e({ orgId: org.orgId, async: true, credits: '0.25', metadata: { team: 7 } }),
          e({ orgId: org.orgId, async: true, credits: '0.125', metadata: { team: true } }),
          e({ orgId: org.orgId, async: true, credits: '8', metadata: { team: { nested: 'x' } } }),
          e({ orgId: org.orgId, async: true, credits: '16', metadata: { team: ['risk'] } }),
          e({ orgId: org.orgId, async: true, credits: '32', metadata: { other: 'x' } }),
          e({ orgId: org.orgId, async: false, credits: '64', metadata: { team: 'risk' } }),
          e({ orgId: org.orgId, async: true, credits: '0.1', metadata: { label: long } }),
          e({ orgId: org.orgId, async: true, credits: '0.2', metadata: { label: long + 'tail' } }),
        ]);
      });

      it('groups by value with numbers/booleans as text; sync, missing, nested and array values go to unknown', async () => {
        const { rows } = await exportRows(
          { groupBy: 'metadata', metadataKey: 'team' },
          org.accountKey,
        );
        const day = daysAgo(2);
        expect(rows).toEqual([
          { date: day, group: '7', credits: '0.25', requestCount: 1 },
          { date: day, group: 'ops', credits: '4', requestCount: 1 },
          { date: day, group: 'risk', credits: '3.5', requestCount: 2 },
          { date: day, group: 'true', credits: '0.125', requestCount: 1 },
          { date: day, group: 'unknown', credits: '120.3', requestCount: 6 },
        ]);
      });

      it('rule 6: groups plus unknown equal the total exactly', async () => {
        const grouped = await exportRows(
          { groupBy: 'metadata', metadataKey: 'team' },
          org.accountKey,
        );
        const total = await exportRows({}, org.accountKey);
        const sum = (rows: { credits: string }[]) =>
          microsToText(rows.reduce((s, r) => s + toMicros(r.credits), 0n));
        expect(sum(grouped.rows)).toBe(sum(total.rows));
      });

      it('rule 7: metadataKey with another groupBy covers only usage carrying the key, without unknown', async () => {
        const { rows } = await exportRows(
          { groupBy: 'product', metadataKey: 'team' },
          org.accountKey,
        );
        expect(rows).toEqual([
          { date: daysAgo(2), group: 'classify', credits: '5.875', requestCount: 4 },
          { date: daysAgo(2), group: 'parse', credits: '2', requestCount: 1 },
        ]);
      });

      it('rule 8 and 9: repeated metadataValue filters, with another grouping', async () => {
        const { rows } = await exportRows(
          { groupBy: 'product', metadataKey: 'team', metadataValue: ['risk', '7'] },
          org.accountKey,
        );
        expect(rows).toEqual([
          { date: daysAgo(2), group: 'classify', credits: '1.75', requestCount: 2 },
          { date: daysAgo(2), group: 'parse', credits: '2', requestCount: 1 },
        ]);
      });

      it('rule 5: values are truncated to 256 characters (code points) before comparing', async () => {
        const { rows } = await exportRows(
          { groupBy: 'metadata', metadataKey: 'label' },
          org.accountKey,
        );
        const truncated = Array.from(long).slice(0, 256).join('');
        expect(rows.find((r) => r.group !== 'unknown')).toEqual({
          date: daysAgo(2),
          group: truncated,
          credits: '0.3',
          requestCount: 2,
        });
        const filtered = await exportRows(
          { groupBy: 'metadata', metadataKey: 'label', metadataValue: long + 'anything' },
          org.accountKey,
        );
        expect(filtered.rows).toEqual([
          { date: daysAgo(2), group: truncated, credits: '0.3', requestCount: 2 },
        ]);
      });

      it('repeated product/feature/fileType/apiKey filters combine', async () => {
        const { rows } = await exportRows(
          {
            groupBy: 'feature',
            product: ['parse', 'classify'],
            feature: 'parse',
            fileType: 'pdf',
            apiKey: 'pk_test',
          },
          org.accountKey,
        );
        expect(rows).toEqual([{ date: daysAgo(2), group: 'parse', credits: '2', requestCount: 1 }]);
      });
    });

    describe('CSV export for finance', () => {
      it('streams RFC 4180 CSV with exact credits and a file name', async () => {
        const org = await seedAccount(t.app, 'Csv');
        await t.app.get(MetadataKeyService).enable(org.orgId, 'project');
        await ingestAll(t.app, [
          usageEvent(
            {
              orgId: org.orgId,
              async: true,
              credits: '1.000001',
              metadata: { project: 'a,"b"\nc' },
            },
            { daysBack: 1 },
          ),
          usageEvent(
            { orgId: org.orgId, async: true, credits: '2', metadata: { project: '=SUM(A1)' } },
            { daysBack: 1 },
          ),
          usageEvent(
            {
              orgId: org.orgId,
              async: true,
              credits: '123456789012.123456',
              metadata: { project: 'big' },
            },
            {
              daysBack: 1,
            },
          ),
        ]);
        const res = await getExport(
          { groupBy: 'metadata', metadataKey: 'project' },
          org.accountKey,
          'text/csv',
        );
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
        expect(res.headers.get('content-disposition')).toMatch(
          new RegExp(
            `^attachment; filename="usage_${org.orgId}_\\d{4}-\\d{2}-\\d{2}_\\d{4}-\\d{2}-\\d{2}_by_metadata\\.csv"$`,
          ),
        );
        const day = daysAgo(1);
        expect(res.text).toBe(
          'date,group,credits,requestCount\r\n' +
            `${day},'=SUM(A1),2,1\r\n` +
            `${day},"a,""b""\nc",1.000001,1\r\n` +
            `${day},big,123456789012.123456,1\r\n`,
        );
      });

      it('keeps JSON when the client ranks it higher', async () => {
        const res = await getExport({}, acme.accountKey, 'application/json, text/csv;q=0.5');
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      });
    });

    describe('agreement with a reference computation', () => {
      const groupBys = ['product', 'feature', 'api_key', 'file_type', 'metadata'] as const;
      const teams = ['risk', 'ops', 'legal', 'unknown', 'ünï'];

      const eventArbitrary = fc.record({
        daysBack: fc.integer({ min: 0, max: 40 }),
        product: fc.constantFrom('classify', 'parse', 'extract'),
        feature: fc.constantFrom('a', 'b'),
        apiKeyId: fc.constantFrom('k1', 'k2'),
        fileType: fc.constantFrom('pdf', 'png'),
        micros: fc.bigInt({ min: 0n, max: 99_999_999_999n }),
        async: fc.boolean(),
        metadata: fc.oneof(
          fc.constant(undefined),
          fc.record({
            team: fc.oneof(
              fc.constantFrom(...teams),
              fc.integer({ min: 0, max: 3 }),
              fc.constant(null),
            ),
          }),
          fc.record({ other: fc.constant('x') }),
        ),
        duplicate: fc.boolean(),
      });

      it('matches the reference and keeps groups + unknown = total on random event sets', async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(eventArbitrary, { minLength: 1, maxLength: 60 }),
            fc.constantFrom(...groupBys),
            fc.option(fc.subarray(['classify', 'parse', 'extract'], { minLength: 1 }), {
              nil: undefined,
            }),
            async (specs, groupBy, products) => {
              const org = await seedAccount(t.app, 'Prop');
              await t.app.get(MetadataKeyService).enable(org.orgId, 'team');
              const events: UsageCloudEvent[] = [];
              for (const s of specs) {
                const credits = microsToText(s.micros);
                const event = usageEvent(
                  {
                    orgId: org.orgId,
                    product: s.product as 'classify',
                    feature: s.feature,
                    apiKeyId: s.apiKeyId,
                    fileType: s.fileType,
                    credits,
                    async: s.async,
                    metadata: s.metadata ?? null,
                  },
                  { daysBack: s.daysBack },
                );
                events.push(event);
                if (s.duplicate) events.push(event);
              }
              await ingestAll(t.app, events);
              const query: ReferenceQuery = {
                orgId: org.orgId,
                startDate: daysAgo(30),
                endDate: daysAgo(0),
                groupBy,
                ...(groupBy === 'metadata' ? { metadataKey: 'team' } : {}),
                ...(products ? { products } : {}),
              };
              // The reference's period given: the service's default one would move on at
              // midnight, and the events stay on the spec's days.
              const period = { startDate: query.startDate, endDate: query.endDate };
              const params: Record<string, string | string[]> = { ...period, groupBy };
              if (query.metadataKey) params.metadataKey = query.metadataKey;
              if (products) params.product = products;
              const { rows } = await exportRows(params, org.accountKey);
              expect(rows).toEqual(referenceExport(events, query));

              if (groupBy === 'metadata') {
                const totals = await exportRows(
                  products ? { ...period, product: products } : period,
                  org.accountKey,
                );
                const sum = (list: { credits: string }[]) =>
                  list.reduce((acc, r) => acc + toMicros(r.credits), 0n);
                expect(sum(rows)).toBe(sum(totals.rows));
              }
            },
          ),
          { numRuns: 40 },
        );
      }, 180_000);
    });

    describe('enabling metadata keys through the dashboard API', () => {
      it('enables a low-cardinality key for a member and refuses an identifier-like one with a reason', async () => {
        const org = await seedAccount(t.app, 'Keys');
        // METADATA_KEY_MIN_EVENTS (200) events: the ratio of distinct values applies, as it
        // does when ingesting (record 0514).
        await ingestAll(
          t.app,
          Array.from({ length: 200 }, (_, i) =>
            usageEvent({
              orgId: org.orgId,
              async: true,
              metadata: { team: i % 2 ? 'a' : 'b', requestId: `r${i}` },
            }),
          ),
        );
        const post = (key: string, orgId = org.orgId, secret = org.accountKey) =>
          fetch(`${t.baseUrl}/api/v1/orgs/${orgId}/metadata-keys`, {
            method: 'POST',
            headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
            body: JSON.stringify({ key }),
          });
        const enabled = await post('team');
        expect(enabled.status).toBe(201);
        expect(await enabled.json()).toEqual(
          expect.objectContaining({ key: 'team', enabled: true, distinctValues: 2 }),
        );

        const refused = await post('requestId');
        expect(refused.status).toBe(400);
        const body = (await refused.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe('METADATA_KEY_REJECTED');
        expect(body.error.message).toMatch(/200 distinct values in 200 events/);

        expect((await post('team', acme.orgId)).status).toBe(403);
        const grouped = await exportRows(
          { groupBy: 'metadata', metadataKey: 'team' },
          org.accountKey,
        );
        expect(grouped.rows.map((r) => r.group)).toEqual(['a', 'b']);
      });
    });
  },
);
