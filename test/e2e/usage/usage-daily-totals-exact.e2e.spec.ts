import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { UsageStoreRepository } from '../../../src/usage/ingestion/usage-store.repository.js';
import type { UsageCloudEvent } from '../../../src/usage/usage-event.js';
import { seedAccount, type SeededAccount } from '../../support/accounts.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { usageEvent } from '../../support/usage-events.js';
import { writeReplayed } from '../../support/usage-replay.js';
import {
  localDate,
  parseExportBody,
  referenceExport,
  toMicros,
  type ReferenceRow,
} from '../../support/usage-reference.js';
import { USAGE_STORES, usageStoreEnv } from '../../support/usage-stores.js';

/*
 * A day's exported credits equal the exact decimal sum of its events, whichever rollups the
 * export reads (daily for UTC, quarter hours dated locally for a zone), across the local
 * day boundaries of zones off UTC, with amounts no binary float adds exactly (12 integer
 * and 6 fractional digits), and with late events written into quarter hours and days that
 * were already rolled up and exported.
 */

const ZONES = ['UTC', 'Asia/Kolkata', 'America/New_York', 'Asia/Kathmandu'] as const;
const PERIOD = { startDate: '2026-04-13', endDate: '2026-04-17' };
/** Instants around local midnights: Kolkata 18:30Z, Kathmandu 18:15Z, New York 04:00Z, UTC. */
const TIMES = [
  '2026-04-14T18:14:59.999Z',
  '2026-04-14T18:15:00.000Z',
  '2026-04-14T18:29:59.999Z',
  '2026-04-14T18:30:00.000Z',
  '2026-04-14T18:44:59.000Z',
  '2026-04-14T23:59:59.999Z',
  '2026-04-15T00:00:00.000Z',
  '2026-04-15T03:59:59.999Z',
  '2026-04-15T04:00:00.000Z',
  '2026-04-15T04:14:00.000Z',
];
/** Each beyond a double's 53 bits as micros once a few are added. */
const AMOUNTS = ['999999999999.999999', '0.000001', '123456789012.345678', '7.1', '0.3'];

function eventsAt(orgId: string, prefix: string, count: number): UsageCloudEvent[] {
  return Array.from({ length: count }, (_, i) =>
    usageEvent(
      {
        orgId,
        product: i % 2 === 0 ? 'parse' : 'classify',
        credits: AMOUNTS[(i * 3 + prefix.length) % AMOUNTS.length],
      },
      { id: `${prefix}-${i}`, time: TIMES[i % TIMES.length] },
    ),
  );
}

describe.each(USAGE_STORES)('exact daily credits with the %s usage store', (store) => {
  let t: TestApp;
  let org: SeededAccount;
  const written: UsageCloudEvent[] = [];

  beforeAll(async () => {
    t = await startTestApp(usageStoreEnv(store));
    org = await seedAccount(t.app, 'Exact');
  });

  afterAll(async () => {
    await t?.close();
  });

  async function write(events: UsageCloudEvent[]): Promise<void> {
    await writeReplayed(t.app, events);
    written.push(...events);
  }

  /** The DuckDB store rolls quarter hours up in a pass after the write; ClickHouse at insert. */
  async function rollUp(): Promise<void> {
    if (store === 'duckdb') await t.app.get(UsageStoreRepository).rollUp();
  }

  async function exportRows(timeZone: string): Promise<ReferenceRow[]> {
    const search = new URLSearchParams({ ...PERIOD, groupBy: 'product' });
    if (timeZone !== 'UTC') search.set('timeZone', timeZone);
    const res = await fetch(`${t.baseUrl}/api/v1/usage/export?${search}`, {
      headers: { authorization: `Bearer ${org.accountKey}` },
    });
    const text = await res.text();
    expect({ status: res.status, text: res.status === 200 ? '' : text }).toEqual({
      status: 200,
      text: '',
    });
    return parseExportBody(text).rows;
  }

  /** Per local day: the exported credits against the exact sum of that day's events. */
  async function expectExactDays(): Promise<void> {
    for (const timeZone of ZONES) {
      const rows = await exportRows(timeZone);
      const exported = new Map<string, bigint>();
      for (const row of rows) {
        exported.set(row.date, (exported.get(row.date) ?? 0n) + toMicros(row.credits));
      }
      const expected = new Map<string, bigint>();
      for (const event of written) {
        const day = localDate(event.time, timeZone);
        expected.set(day, (expected.get(day) ?? 0n) + toMicros(String(event.data.credits)));
      }
      expect({ timeZone, days: exported }).toEqual({ timeZone, days: expected });
      expect({ timeZone, rows }).toEqual({
        timeZone,
        rows: referenceExport(written, {
          orgId: org.orgId,
          ...PERIOD,
          groupBy: 'product',
          timeZone,
        }),
      });
    }
  }

  it('exports each local day as the exact sum of its events', async () => {
    await write(eventsAt(org.orgId, 'first', 40));
    await expectExactDays();
    await rollUp();
    await expectExactDays();
  });

  it('stays exact when late events land in quarter hours already rolled up and exported', async () => {
    await write(eventsAt(org.orgId, 'late', 25));
    await expectExactDays();
    await rollUp();
    await expectExactDays();
  });
});
