import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { newestBatchId, rollUpStep } from '../../../src/usage/core/quarter-hour-rollups.js';
import { UsageStoreRepository } from '../../../src/usage/ingestion/usage-store.repository.js';
import { MetadataKeyService } from '../../../src/usage/metadata/metadata-key.service.js';
import type { UsageCloudEvent } from '../../../src/usage/usage-event.js';
import { seedAccount, SeededAccount } from '../../support/accounts.js';
import { startTestApp, TestApp } from '../../support/test-app.js';
import { usageEvent } from '../../support/usage-events.js';
import { writeReplayed } from '../../support/usage-replay.js';
import { seeded } from '../../support/usage-event-mix.js';
import {
  parseExportBody,
  ReferenceQuery,
  referenceExport,
  type ReferenceEvent,
} from '../../support/usage-reference.js';
import { usageExportText } from '../../support/usage-export-http.js';

/*
 * The quarter-hour rollups are built after the ingest write, by a roll-up pass (DuckDB store).
 * Exports in a time zone or by two dimensions stay exact at every stage: before the pass
 * (events past its watermark read from the events table), after it, with corrections of
 * rolled-up and of not yet rolled-up events, and after the clustering pass; and a write
 * itself leaves the quarter-hour tables alone.
 */

const HOUR = 3_600_000;
const PRODUCTS = ['classify', 'parse', 'extract'] as const;
/** Metadata values of every groupable kind, the numbers' JSON text included. */
const NUMBERS = [1e21, 1.5, 7, -3, 1e-7, 123456789012345680000, 2.5e25];
const LONG_TEXT = `${'é'.repeat(300)}`;
const EMOJI_TEXT = '👍🏽'.repeat(200);
const KEYS = ['team', 'n', 'flag', 'label'];

let t: TestApp;
let acme: SeededAccount;
let other: SeededAccount;
const sent: ReferenceEvent[] = [];

function eventsOf(orgId: string, count: number, seed: number, start: string): UsageCloudEvent[] {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, i) => {
    const time = new Date(Date.parse(start) + Math.floor(random() * 72 * HOUR)).toISOString();
    const metadata =
      i % 5 === 4
        ? undefined
        : {
            team: ['risk', 'ops'][i % 2],
            n: NUMBERS[i % NUMBERS.length],
            flag: i % 3 === 0,
            label: [LONG_TEXT, EMOJI_TEXT, 'plain'][i % 3],
            nested: { skipped: true },
          };
    return usageEvent(
      {
        orgId,
        product: PRODUCTS[i % 3],
        feature: `f${i % 2}`,
        apiKeyId: `pk_${i % 4}`,
        fileType: i % 3 === 0 ? 'png' : 'pdf',
        credits: `${(i % 7) + 1}.${String(seed * 7 + i).padStart(3, '0')}`,
        async: i % 4 !== 3,
        ...(metadata ? { metadata } : {}),
      },
      { time },
    );
  });
}

/** Through the store's writer, with a replay policy (the events lie in 2026's DST changes). */
async function write(events: UsageCloudEvent[]): Promise<void> {
  await writeReplayed(t.app, events);
  sent.push(...(events as unknown as ReferenceEvent[]));
}

/** A corrected copy: same identity, the next version, other credits and product. */
function corrected(event: UsageCloudEvent, version: number): UsageCloudEvent {
  return {
    ...event,
    data: {
      ...event.data,
      version,
      credits: `${version}.5`,
      product: 'split',
      ...(event.data.async ? { metadata: { team: 'moved', n: 42 } } : {}),
    },
  };
}

async function exportRows(org: SeededAccount, query: ReferenceQuery) {
  const search = new URLSearchParams({ startDate: query.startDate, endDate: query.endDate });
  search.append('groupBy', query.groupBy);
  if (query.secondGroupBy) search.append('groupBy', query.secondGroupBy);
  if (query.timeZone) search.set('timeZone', query.timeZone);
  if (query.metadataKey) search.set('metadataKey', query.metadataKey);
  const text = await usageExportText(t.baseUrl, org.accountKey, search);
  return parseExportBody(text).rows;
}

/** Every time-zone and two-dimension question of both orgs, each against the reference. */
async function expectExact(): Promise<void> {
  const questions: Omit<ReferenceQuery, 'orgId'>[] = [];
  for (const timeZone of ['America/New_York', 'Asia/Kolkata', 'UTC']) {
    for (const groupBy of ['product', 'api_key'] as const) {
      questions.push({ startDate: '2026-03-01', endDate: '2026-03-20', groupBy, timeZone });
    }
    for (const metadataKey of KEYS) {
      questions.push({
        startDate: '2026-03-01',
        endDate: '2026-03-20',
        groupBy: 'metadata',
        metadataKey,
        timeZone,
      });
    }
  }
  questions.push(
    {
      startDate: '2026-03-01',
      endDate: '2026-03-20',
      groupBy: 'product',
      secondGroupBy: 'file_type',
    },
    {
      startDate: '2026-03-01',
      endDate: '2026-03-20',
      groupBy: 'metadata',
      secondGroupBy: 'product',
      metadataKey: 'n',
    },
    {
      startDate: '2026-03-01',
      endDate: '2026-03-20',
      groupBy: 'feature',
      secondGroupBy: 'metadata',
      metadataKey: 'label',
      timeZone: 'Europe/Berlin',
    },
  );
  for (const org of [acme, other]) {
    for (const question of questions) {
      const query = { ...question, orgId: org.orgId };
      const rows = await exportRows(org, query);
      expect({ query, rows }).toEqual({ query, rows: referenceExport(sent, query) });
    }
  }
  await expectNarrowTablesEqualFullOnes();
}

async function quarterHourRows(): Promise<number> {
  const [row] = await t.app.get(DuckDbService).all<{ n: bigint }>(
    `SELECT (SELECT count(*) FROM usage_quarter_hour)
            + (SELECT count(*) FROM usage_quarter_hour_metadata)
            + (SELECT count(*) FROM usage_quarter_hour_dimension)
            + (SELECT count(*) FROM usage_quarter_hour_metadata_value) AS n`,
  );
  return Number(row.n);
}

/**
 * Each narrow quarter-hour table holds what its full table holds summed over the other
 * dimensions, key by key (rows of a key summing to zero count as absent).
 */
async function expectNarrowTablesEqualFullOnes(): Promise<void> {
  const db = t.app.get(DuckDbService);
  const differing = async (narrow: string, fromFull: string, keys: string) => {
    const sums = (source: string) =>
      `SELECT ${keys}, CAST(sum(credits) AS VARCHAR) AS credits, sum(request_count) AS n
       FROM (${source}) GROUP BY ALL HAVING sum(credits) <> 0 OR sum(request_count) <> 0`;
    const [row] = await db.all<{ n: bigint }>(
      `SELECT count(*) AS n FROM (
         (${sums(`SELECT * FROM ${narrow}`)} EXCEPT ${sums(fromFull)})
         UNION ALL (${sums(fromFull)} EXCEPT ${sums(`SELECT * FROM ${narrow}`)}))`,
    );
    return Number(row.n);
  };
  expect(
    await differing(
      'usage_quarter_hour_dimension',
      `SELECT org_id, quarter, credits, request_count,
              unnest(['product', 'feature', 'api_key', 'file_type']) AS dimension,
              unnest([product, feature, api_key_id, file_type]) AS value
       FROM usage_quarter_hour`,
      'org_id, dimension, quarter, value',
    ),
  ).toBe(0);
  expect(
    await differing(
      'usage_quarter_hour_metadata_value',
      'SELECT * FROM usage_quarter_hour_metadata',
      'org_id, meta_key, quarter, meta_value',
    ),
  ).toBe(0);
}

// Each test writes, rolls up or clusters a store a few times: seconds alone, but up to a
// minute on a shared CI machine, past jest's default.
jest.setTimeout(120_000);

beforeAll(async () => {
  // No timers: the spec runs each pass itself.
  t = await startTestApp({
    USAGE_QUARTER_HOUR_ROLLUP_INTERVAL_SEC: '0',
    USAGE_ROLLUP_CLUSTER_INTERVAL_MIN: '0',
  });
  acme = await seedAccount(t.app, 'Acme');
  other = await seedAccount(t.app, 'Other');
  for (const org of [acme, other]) {
    for (const key of KEYS) await t.app.get(MetadataKeyService).enable(org.orgId, key);
  }
});

afterAll(async () => {
  await t?.close();
});

describe('quarter-hour rollups built after the write', () => {
  const first: UsageCloudEvent[] = [];

  it('leaves the quarter-hour tables to the roll-up and answers exactly before it ran', async () => {
    first.push(
      ...eventsOf(acme.orgId, 90, 1, '2026-03-06T12:00:00Z'),
      ...eventsOf(other.orgId, 40, 2, '2026-03-07T00:00:00Z'),
    );
    const before = await quarterHourRows();
    await write(first.slice(0, 70));
    await write(first.slice(70));
    expect(await quarterHourRows()).toBe(before);
    await expectExact();
  });

  it('answers the same once rolled up, in steps, with nothing left to add', async () => {
    const writer = t.app.get(UsageStoreRepository);
    expect(await writer.rollUp()).toBe(first.length);
    expect(await quarterHourRows()).toBeGreaterThan(0);
    expect(await writer.rollUp()).toBe(0);
    await expectExact();
  });

  it('leaves a batch written after its pass began to the next pass', async () => {
    const db = t.app.get(DuckDbService);
    const through = await db.exclusive((connection) => newestBatchId(connection));
    const late = eventsOf(other.orgId, 20, 5, '2026-03-12T00:00:00Z');
    await write(late);
    // A step of the pass that began before the write: nothing of it, the rest still exact.
    expect(await db.exclusive((connection) => rollUpStep(connection, through))).toBe(0);
    await expectExact();
    expect(await t.app.get(UsageStoreRepository).rollUp()).toBe(late.length);
    await expectExact();
  });

  it('keeps corrections of rolled-up and of not yet rolled-up events exact', async () => {
    const writer = t.app.get(UsageStoreRepository);
    const later = eventsOf(acme.orgId, 30, 3, '2026-03-08T00:00:00Z');
    await write(later);
    // A rolled-up event corrected twice, a not yet rolled-up one once, in one later write.
    await write([
      corrected(first[0], 2),
      corrected(first[1], 2),
      corrected(later[0], 2),
      corrected(later[5], 2),
    ]);
    await write([corrected(first[0], 3), corrected(later[1], 4)]);
    await expectExact();
    expect(await writer.rollUp()).toBeGreaterThan(0);
    await expectExact();
    // Corrected again after the roll-up, then re-clustered: still exact.
    await write([corrected(later[0], 5), corrected(first[2], 2)]);
    await expectExact();
    await writer.maintain();
    await expectExact();
  });

  it('keeps a whole hour in one bucket outside the hours where a zone starts its day off the hour', async () => {
    const writer = t.app.get(UsageStoreRepository);
    const org = await seedAccount(t.app, 'Dense');
    // 06:00-07:00 UTC: no zone in use starts a day then; 17:30: Yangon's days start then;
    // 18:15 and 18:30: Nepal's and India's.
    const times = [
      '06:01',
      '06:20',
      '06:44',
      '06:59',
      '17:10',
      '17:50',
      '18:01',
      '18:20',
      '18:31',
      '18:40',
    ];
    const events = times.map((hhmm, i) =>
      usageEvent(
        { orgId: org.orgId, product: 'parse', credits: `${i + 1}.25` },
        { time: `2026-03-10T${hhmm}:00.000Z` },
      ),
    );
    await write(events);
    await writer.rollUp();
    const rows = await t.app.get(DuckDbService).all<{ quarter: number; n: bigint }>(
      `SELECT quarter, sum(request_count) AS n FROM usage_quarter_hour
       WHERE org_id = $1 GROUP BY quarter ORDER BY quarter`,
      [org.orgId],
    );
    const quarterOf = (hhmm: string) => Date.parse(`2026-03-10T${hhmm}:00Z`) / 900_000;
    expect(rows.map((r) => [Number(r.quarter), Number(r.n)])).toEqual([
      [quarterOf('06:00'), 4],
      [quarterOf('17:00'), 1],
      [quarterOf('17:30'), 1],
      [quarterOf('18:00'), 1],
      [quarterOf('18:15'), 1],
      [quarterOf('18:30'), 2],
    ]);
    for (const timeZone of ['Asia/Kolkata', 'America/New_York', 'Asia/Kathmandu', 'Asia/Yangon']) {
      const query: ReferenceQuery = {
        orgId: org.orgId,
        startDate: '2026-03-09',
        endDate: '2026-03-11',
        groupBy: 'product',
        timeZone,
      };
      expect(await exportRows(org, query)).toEqual(referenceExport(sent, query));
    }
  });

  it('answers a zone that started its days within an hour kept whole from the events', async () => {
    const writer = t.app.get(UsageStoreRepository);
    const org = await seedAccount(t.app, 'Caracas');
    await t.app.get(MetadataKeyService).enable(org.orgId, 'team');
    // Caracas kept -04:30 until May 2016: its days started at 04:30 UTC.
    const events = ['04:10', '04:29', '04:30', '04:50', '05:10'].map((hhmm, i) =>
      usageEvent(
        {
          orgId: org.orgId,
          product: PRODUCTS[i % 3],
          credits: `${i + 2}.5`,
          async: true,
          metadata: { team: ['risk', 'ops'][i % 2] },
        },
        { time: `2015-06-10T${hhmm}:00.000Z` },
      ),
    );
    await write(events.slice(0, 3));
    await writer.rollUp();
    await write(events.slice(3));
    for (const query of [
      { groupBy: 'product' as const },
      { groupBy: 'metadata' as const, metadataKey: 'team' },
      { groupBy: 'metadata' as const, secondGroupBy: 'product' as const, metadataKey: 'team' },
    ]) {
      const full: ReferenceQuery = {
        orgId: org.orgId,
        startDate: '2015-06-08',
        endDate: '2015-06-12',
        timeZone: 'America/Caracas',
        ...query,
      };
      const rows = await exportRows(org, full);
      expect(rows).toEqual(referenceExport(sent, full));
      expect(new Set(rows.map((r) => r.date))).toEqual(new Set(['2015-06-09', '2015-06-10']));
    }
  });
});
