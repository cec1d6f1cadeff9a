import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { MetadataKeyService } from '../../src/usage/metadata/metadata-key.service.js';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import { seedAccount, SeededAccount } from '../support/accounts.js';
import { startTestApp, TestApp } from '../support/test-app.js';
import { daysAgo, usageEvent } from '../support/usage-events.js';
import { writeReplayed } from '../support/usage-replay.js';
import {
  localDate,
  microsToText,
  parseExportBody,
  ReferenceGroupBy,
  ReferenceQuery,
  ReferenceRow,
  referenceExport,
  toMicros,
} from '../support/usage-reference.js';
import { USAGE_STORES, usageStoreEnv } from '../support/usage-stores.js';

/*
 * Exports by local day (`timeZone`) and by two dimensions at once, against the reference
 * computation of test/support/usage-reference.ts (local dates by the zones' published DST
 * rules, not by Intl), in every store mode.
 */

const HOUR = 3_600_000;
const MINUTE = 60_000;
const ZONES = ['America/New_York', 'Europe/Berlin', 'Asia/Kolkata'] as const;
/** Zones for the random part: whole-hour, :30 and :45 offsets, both hemispheres' DST. */
const OTHER_ZONES = [
  'UTC',
  'America/St_Johns',
  'Asia/Kathmandu',
  'Australia/Adelaide',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/Santiago',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'Asia/Tehran',
] as const;
const GROUP_BYS: ReferenceGroupBy[] = ['product', 'feature', 'api_key', 'file_type', 'metadata'];

/** The DST changes of 2026 and the instants just around them. */
const CHANGES = [
  '2026-03-08T07:00:00Z', // New York: 02:00 EST -> 03:00 EDT (a 23-hour day)
  '2026-11-01T06:00:00Z', // New York: 02:00 EDT -> 01:00 EST (a 25-hour day)
  '2026-03-29T01:00:00Z', // Berlin: 02:00 CET -> 03:00 CEST
  '2026-10-25T01:00:00Z', // Berlin: 03:00 CEST -> 02:00 CET
];
const around = (iso: string, deltas: number[]) =>
  deltas.map((d) => new Date(Date.parse(iso) + d).toISOString());

/** Instants at each DST change, each local midnight nearby, and Kolkata's 18:30 UTC midnight. */
const EDGE_TIMES = [
  ...CHANGES.flatMap((c) => around(c, [-HOUR - 1000, -1000, 0, 1000, 59 * MINUTE, HOUR])),
  ...['2026-03-08', '2026-03-09', '2026-11-01', '2026-11-02'].flatMap((d) =>
    around(`${d}T00:00:00Z`, [4 * HOUR - 1, 4 * HOUR, 5 * HOUR - 1, 5 * HOUR]),
  ),
  ...['2026-03-28', '2026-03-29', '2026-10-25', '2026-10-26'].flatMap((d) =>
    around(`${d}T00:00:00Z`, [-2 * HOUR, -HOUR - 1, -HOUR, -1, 0]),
  ),
  ...['2026-03-07', '2026-10-31'].flatMap((d) =>
    around(`${d}T18:30:00Z`, [-1, 0, 14 * MINUTE, 15 * MINUTE]),
  ),
];

describe.each([...USAGE_STORES, 'clickhouse-cluster' as const])(
  'local days and two dimensions with the %s usage store',
  (store) => {
    let t: TestApp;

    /** Through the store's writer with a replay policy: the events lie months back. */
    const write = (events: UsageCloudEvent[]) => writeReplayed(t.app, events);

    async function getExport(org: SeededAccount, params: Record<string, string | string[]>) {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(params)) {
        for (const v of Array.isArray(value) ? value : [value]) search.append(name, v);
      }
      const res = await fetch(`${t.baseUrl}/api/v1/usage/export?${search}`, {
        headers: { authorization: `Bearer ${org.accountKey}` },
      });
      return { status: res.status, text: await res.text() };
    }

    async function exportRows(org: SeededAccount, params: Record<string, string | string[]>) {
      const res = await getExport(org, params);
      expect({ status: res.status, text: res.status === 200 ? '' : res.text }).toEqual({
        status: 200,
        text: '',
      });
      return parseExportBody(res.text);
    }

    function paramsOf(query: ReferenceQuery): Record<string, string | string[]> {
      return {
        startDate: query.startDate,
        endDate: query.endDate,
        groupBy: [query.groupBy, ...(query.secondGroupBy ? [query.secondGroupBy] : [])],
        ...(query.timeZone ? { timeZone: query.timeZone } : {}),
        ...(query.metadataKey ? { metadataKey: query.metadataKey } : {}),
        ...(query.products ? { product: query.products } : {}),
      };
    }

    const compare = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
    const sum = (rows: ReferenceRow[]) => rows.reduce((s, r) => s + toMicros(r.credits), 0n);

    /** Rows summed over the second dimension: what the one-dimension export shows. */
    function collapse(rows: ReferenceRow[]): ReferenceRow[] {
      const byKey = new Map<string, ReferenceRow>();
      for (const r of rows) {
        const key = `${r.date}\u0000${r.group}`;
        const entry = byKey.get(key) ?? {
          date: r.date,
          group: r.group,
          credits: '0',
          requestCount: 0,
        };
        entry.credits = microsToText(toMicros(entry.credits) + toMicros(r.credits));
        entry.requestCount += r.requestCount;
        byKey.set(key, entry);
      }
      return [...byKey.values()];
    }

    beforeAll(async () => {
      t = await startTestApp(usageStoreEnv(store));
    });

    afterAll(async () => {
      await t.close();
    });

    describe('timeZone', () => {
      let org: SeededAccount;
      const events: UsageCloudEvent[] = [];

      beforeAll(async () => {
        org = await seedAccount(t.app, 'Zones');
        await t.app.get(MetadataKeyService).enable(org.orgId, 'team');
        EDGE_TIMES.forEach((time, i) =>
          events.push(
            usageEvent(
              {
                orgId: org.orgId,
                product: i % 3 === 0 ? 'parse' : 'classify',
                credits: microsToText(BigInt(1 + i * 1_000_003)),
                async: i % 2 === 0,
                metadata: i % 4 === 0 ? { team: i % 8 === 0 ? 'risk' : 'ops' } : null,
              },
              { time },
            ),
          ),
        );
        await write(events);
      });

      it.each(ZONES)(
        'dates usage by local day in %s across its DST changes, equal to the reference',
        async (timeZone) => {
          for (const [startDate, endDate] of [
            ['2026-03-06', '2026-03-10'],
            ['2026-03-27', '2026-03-31'],
            ['2026-10-23', '2026-11-03'],
          ]) {
            for (const groupBy of ['product', 'metadata'] as const) {
              const query: ReferenceQuery = {
                orgId: org.orgId,
                startDate,
                endDate,
                groupBy,
                timeZone,
                ...(groupBy === 'metadata' ? { metadataKey: 'team' } : {}),
              };
              const { body, rows } = await exportRows(org, paramsOf(query));
              expect(body).toEqual(expect.objectContaining({ timeZone, groupBy }));
              expect(rows).toEqual(referenceExport(events, query));
            }
          }
        },
      );

      it('keeps the total of a whole period in every zone, and UTC answers as without the parameter', async () => {
        const period = { startDate: '2026-03-01', endDate: '2026-11-10' };
        const utc = await exportRows(org, { ...period });
        expect(utc.body).not.toHaveProperty('timeZone');
        expect((await exportRows(org, { ...period, timeZone: 'UTC' })).rows).toEqual(utc.rows);
        for (const timeZone of [...ZONES, ...OTHER_ZONES]) {
          const local = await exportRows(org, { ...period, timeZone });
          expect(sum(local.rows)).toBe(sum(utc.rows));
          expect(local.rows).toEqual(
            referenceExport(events, { orgId: org.orgId, ...period, groupBy: 'product', timeZone }),
          );
        }
      });

      it('answers a zone at offset 0 throughout the period as UTC, naming the zone', async () => {
        for (const [timeZone, period] of [
          ['Etc/UTC', { startDate: '2026-03-01', endDate: '2026-11-10' }],
          ['Africa/Abidjan', { startDate: '2026-03-01', endDate: '2026-11-10' }],
          ['Europe/London', { startDate: '2026-01-01', endDate: '2026-03-27' }],
        ] as const) {
          const utc = await exportRows(org, { ...period });
          const local = await exportRows(org, { ...period, timeZone });
          expect(local.body).toEqual(expect.objectContaining({ timeZone }));
          expect(local.rows.length).toBeGreaterThan(0);
          expect(local.rows).toEqual(utc.rows);
          expect(local.rows).toEqual(
            referenceExport(events, { orgId: org.orgId, ...period, groupBy: 'product', timeZone }),
          );
        }
      });

      it('writes local days into the CSV', async () => {
        const res = await fetch(
          `${t.baseUrl}/api/v1/usage/export?startDate=2026-11-01&endDate=2026-11-01&timeZone=America/New_York`,
          { headers: { authorization: `Bearer ${org.accountKey}`, accept: 'text/csv' } },
        );
        expect(res.status).toBe(200);
        const expected = referenceExport(events, {
          orgId: org.orgId,
          startDate: '2026-11-01',
          endDate: '2026-11-01',
          groupBy: 'product',
          timeZone: 'America/New_York',
        });
        expect(await res.text()).toBe(
          'date,group,credits,requestCount\r\n' +
            expected.map((r) => `${r.date},${r.group},${r.credits},${r.requestCount}\r\n`).join(''),
        );
      });

      it.each([['Mars/Olympus_Mons'], ['UTC+5'], ['Europe/'], ['🕒']])(
        'refuses the unknown zone %s with 400 naming timeZone',
        async (timeZone) => {
          const res = await getExport(org, { timeZone });
          expect(res.status).toBe(400);
          expect(JSON.parse(res.text).error).toEqual(
            expect.objectContaining({ code: 'INVALID_TIME_ZONE', parameter: 'timeZone' }),
          );
        },
      );
    });

    describe('two grouping dimensions', () => {
      it('refuses a third, a repeated or an unknown dimension like an invalid groupBy', async () => {
        const org = await seedAccount(t.app, 'TwoBad');
        for (const groupBy of [
          ['product', 'feature', 'api_key'],
          'product,feature,file_type',
          ['product', 'product'],
          'product,color',
        ]) {
          const res = await getExport(org, { groupBy });
          expect(res.status).toBe(400);
          expect(JSON.parse(res.text).error).toEqual(
            expect.objectContaining({ code: 'INVALID_GROUP_BY', parameter: 'groupBy' }),
          );
        }
      });

      it('takes repeated and comma forms alike, names both, and the CSV gets a subgroup column', async () => {
        const org = await seedAccount(t.app, 'TwoForms');
        const events = [
          usageEvent({ orgId: org.orgId, apiKeyId: 'k1', credits: '1.5' }, { daysBack: 1 }),
          usageEvent({ orgId: org.orgId, apiKeyId: 'k2', credits: '2' }, { daysBack: 1 }),
          usageEvent(
            { orgId: org.orgId, apiKeyId: 'k1', product: 'parse', feature: 'parse' },
            { daysBack: 1 },
          ),
        ];
        await write(events);
        // The end date given (the spec's day): the two answers compared as text are of one
        // period even when the service's default one moves on at midnight between them.
        const endDate = daysAgo(0);
        const repeated = await getExport(org, { endDate, groupBy: ['product', 'api_key'] });
        const comma = await getExport(org, { endDate, groupBy: 'product,api_key' });
        expect(comma.text).toBe(repeated.text);
        const { body, rows } = parseExportBody(repeated.text);
        expect(body.groupBy).toBe('product,api_key');
        const day = localDate(events[0].time);
        expect(rows).toEqual([
          { date: day, group: 'classify', subgroup: 'k1', credits: '1.5', requestCount: 1 },
          { date: day, group: 'classify', subgroup: 'k2', credits: '2', requestCount: 1 },
          { date: day, group: 'parse', subgroup: 'k1', credits: '1', requestCount: 1 },
        ]);
        const csv = await fetch(
          `${t.baseUrl}/api/v1/usage/export?endDate=${endDate}&groupBy=product,api_key`,
          {
            headers: { authorization: `Bearer ${org.accountKey}`, accept: 'text/csv' },
          },
        );
        expect(await csv.text()).toBe(
          'date,group,subgroup,credits,requestCount\r\n' +
            `${day},classify,k1,1.5,1\r\n${day},classify,k2,2,1\r\n${day},parse,k1,1,1\r\n`,
        );
      });
    });

    describe('agreement with the reference on random event sets, zones and groupings', () => {
      const eventArbitrary = fc.record({
        // Around the DST changes of 2026 and across whole days.
        change: fc.constantFrom(...CHANGES),
        offsetMinutes: fc.integer({ min: -3 * 24 * 60, max: 3 * 24 * 60 }),
        second: fc.integer({ min: 0, max: 59 }),
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
              fc.constantFrom('risk', 'ops', 'unknown'),
              fc.integer({ min: 0, max: 2 }),
            ),
          }),
          fc.record({ other: fc.constant('x') }),
        ),
        duplicate: fc.boolean(),
      });
      const dimensionsArbitrary = fc.oneof(
        fc.constantFrom(...GROUP_BYS).map((d) => [d] as ReferenceGroupBy[]),
        fc.uniqueArray(fc.constantFrom(...GROUP_BYS), { minLength: 2, maxLength: 2 }),
      );

      it('matches the reference; two dimensions add up to each one-dimension export', async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(eventArbitrary, { minLength: 1, maxLength: 40 }),
            // The named zones, or any zone of the runtime's database.
            fc.oneof(
              fc.constantFrom(...ZONES, ...OTHER_ZONES),
              fc.constantFrom(...Intl.supportedValuesOf('timeZone')),
            ),
            dimensionsArbitrary,
            fc.option(fc.subarray(['classify', 'parse', 'extract'], { minLength: 1 }), {
              nil: undefined,
            }),
            async (specs, timeZone, dimensions, products) => {
              const org = await seedAccount(t.app, 'Prop');
              await t.app.get(MetadataKeyService).enable(org.orgId, 'team');
              const events: UsageCloudEvent[] = [];
              for (const s of specs) {
                const time = new Date(
                  Date.parse(s.change) + s.offsetMinutes * MINUTE + s.second * 1000,
                ).toISOString();
                const event = usageEvent(
                  {
                    orgId: org.orgId,
                    product: s.product as 'classify',
                    feature: s.feature,
                    apiKeyId: s.apiKeyId,
                    fileType: s.fileType,
                    credits: microsToText(s.micros),
                    async: s.async,
                    metadata: s.metadata ?? null,
                  },
                  { time },
                );
                events.push(event);
                if (s.duplicate) events.push(event);
              }
              await write(events);
              const days = events.map((e) => localDate(e.time, timeZone)).sort();
              const usesMetadata = dimensions.includes('metadata');
              const query: ReferenceQuery = {
                orgId: org.orgId,
                startDate: days[0],
                endDate: days[days.length - 1],
                groupBy: dimensions[0],
                ...(dimensions[1] ? { secondGroupBy: dimensions[1] } : {}),
                timeZone,
                ...(usesMetadata ? { metadataKey: 'team' } : {}),
                ...(products ? { products } : {}),
              };
              const { rows } = await exportRows(org, paramsOf(query));
              expect(rows).toEqual(referenceExport(events, query));
              if (dimensions.length === 2) {
                // Each one-dimension export, with metadataKey only when it groups by it
                // (otherwise rule 7 would restrict it to usage carrying the key).
                const alone = (groupBy: ReferenceGroupBy) =>
                  exportRows(
                    org,
                    paramsOf({
                      ...query,
                      groupBy,
                      secondGroupBy: undefined,
                      metadataKey: groupBy === 'metadata' ? 'team' : undefined,
                    }),
                  );
                const first = await alone(dimensions[0]);
                expect(collapse(rows)).toEqual(collapse(first.rows));
                const second = await alone(dimensions[1]);
                expect(sum(second.rows)).toBe(sum(rows));
                const swapped = (await alone(dimensions[1])).rows;
                expect(collapse(swapped)).toEqual(
                  collapse(rows.map((r) => ({ ...r, group: r.subgroup as string }))).sort(
                    (a, b) =>
                      (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) || compare(a.group, b.group),
                  ),
                );
              }
            },
          ),
          { numRuns: store === 'duckdb' ? 25 : 15 },
        );
      }, 240_000);
    });
  },
);
