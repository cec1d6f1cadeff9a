import { describe, expect, it } from '@jest/globals';
import { exportQuery } from '../../../test/support/usage-export-query.js';
import fc from 'fast-check';
import type { AccountsService } from '../../accounts/accounts.service.js';
import type { AccountPrincipal } from '../../accounts/principal.js';
import type { AppConfig } from '../../config/app-config.js';
import type { MetadataKeyService } from '../metadata/metadata-key.service.js';
import type { UsageExportReader } from '../core/usage-store.ports.js';
import { UsageWatermarks } from '../usage-watermarks.js';
import { UsageExportCache } from './usage-export.cache.js';
import type { UsageExportQuery } from './usage-export.query.js';
import { refreshRange, spliceDates } from './usage-export.refresh.js';
import { UsageExportService } from './usage-export.service.js';

const principal: AccountPrincipal = {
  kind: 'account',
  keyId: 'ak_1',
  userId: 'usr_1',
  defaultOrgId: 'org_a',
};

function query(overrides: Partial<UsageExportQuery> = {}): UsageExportQuery {
  return exportQuery({ startDate: '2026-01-01', endDate: '2026-01-31', ...overrides });
}

const row = (date: string, group: string, n: number) =>
  `{"date":"${date}","group":${JSON.stringify(group)},"credits":${n},"requestCount":${n}}`;

describe('refreshRange', () => {
  it('reads the changed UTC days again in UTC, and one day either side in another zone', () => {
    expect(refreshRange(query(), ['2026-01-20', '2026-01-21'])).toEqual({
      from: '2026-01-20',
      to: '2026-01-21',
    });
    expect(refreshRange(query({ timeZone: 'Asia/Kolkata' }), ['2026-01-20'])).toEqual({
      from: '2026-01-19',
      to: '2026-01-21',
    });
  });

  it('clips to the period, keeps the answer when no changed day touches it, and reads it whole when most of it changed', () => {
    expect(refreshRange(query({ timeZone: 'America/New_York' }), ['2026-02-01'])).toEqual({
      from: '2026-01-31',
      to: '2026-01-31',
    });
    expect(refreshRange(query(), ['2026-02-01'])).toBeNull();
    expect(refreshRange(query(), ['2025-12-31', '2026-02-01'])).toBe('whole');
    expect(refreshRange(query(), [])).toBeNull();
  });
});

describe('spliceDates', () => {
  it('puts the fresh rows in place of the rows of the range, keeping the others in order', () => {
    const data = [
      row('2026-01-01', 'a', 1),
      row('2026-01-02', 'a', 2),
      row('2026-01-02', 'b', 3),
      row('2026-01-03', 'a', 4),
    ].join(',');
    const fresh = [row('2026-01-02', 'c', 9)].join(',');
    const range = { from: '2026-01-02', to: '2026-01-02' };
    expect(spliceDates(data, range, fresh)).toBe(
      [row('2026-01-01', 'a', 1), row('2026-01-02', 'c', 9), row('2026-01-03', 'a', 4)].join(','),
    );
    expect(spliceDates(data, range, '')).toBe(
      [row('2026-01-01', 'a', 1), row('2026-01-03', 'a', 4)].join(','),
    );
    expect(spliceDates('', range, fresh)).toBe(fresh);
    expect(spliceDates(data, { from: '2026-01-04', to: '2026-01-05' }, fresh)).toBe(
      `${data},${fresh}`,
    );
  });

  it('is not misled by a group value that looks like a row', () => {
    const tricky = '{"date":"2026-01-02","group":"x"}';
    const data = [row('2026-01-01', tricky, 1), row('2026-01-03', 'a', 2)].join(',');
    const fresh = row('2026-01-02', 'b', 5);
    expect(spliceDates(data, { from: '2026-01-02', to: '2026-01-02' }, fresh)).toBe(
      [row('2026-01-01', tricky, 1), fresh, row('2026-01-03', 'a', 2)].join(','),
    );
  });

  it('refuses data that is not rows', () => {
    expect(spliceDates('{"n":1}', { from: '2026-01-01', to: '2026-01-01' }, '')).toBeNull();
  });
});

/**
 * A store of (UTC day, group, amount) entries rendered as the export renders rows, each
 * local date being the UTC day shifted by the zone's offset (a whole day here, the most a
 * row can move), against the service with its cache: after any sequence of writes and
 * exports, every answer equals one computed from scratch.
 */
describe('UsageExportService brings cached answers up to date by changed day', () => {
  const DAYS = Array.from({ length: 40 }, (_, i) =>
    new Date(Date.UTC(2025, 11, 20 + i)).toISOString().slice(0, 10),
  );
  const shift = (day: string, zone: string) =>
    zone === 'UTC' ? day : new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);

  function renderRows(entries: { day: string; group: string; n: number }[], q: UsageExportQuery) {
    const sums = new Map<string, number>();
    for (const e of entries) {
      const date = shift(e.day, q.timeZone);
      if (date < q.startDate || date > q.endDate) continue;
      const key = `${date}\u0000${e.group}`;
      sums.set(key, (sums.get(key) ?? 0) + e.n);
    }
    return [...sums]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, n]) => row(key.split('\u0000')[0], key.split('\u0000')[1], n))
      .join(',');
  }

  const write = fc.record({
    kind: fc.constant('write' as const),
    entries: fc.array(
      fc.record({
        // Mostly the latest days, as live usage; now and then any day, as a late event.
        day: fc.oneof(
          fc.constantFrom(...DAYS.slice(-12)),
          fc.constantFrom(...DAYS.slice(-12)),
          fc.constantFrom(...DAYS),
        ),
        group: fc.constantFrom('a', 'b', '{"date":"2026-01-05"}'),
        n: fc.integer({ min: 1, max: 9 }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    daysKnown: fc.oneof(fc.constant(true), fc.constant(true), fc.constant(false)),
  });
  // A few periods asked again and again, as a dashboard does, so answers are refreshed.
  const read = fc.record({
    kind: fc.constant('read' as const),
    startDate: fc.constantFrom(DAYS[5], DAYS[28]),
    length: fc.constantFrom(9, 34),
    timeZone: fc.constantFrom('UTC', 'Asia/Tokyo'),
  });

  it('answers as from scratch after any writes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(write, read, read), { minLength: 10, maxLength: 40 }),
        async (steps) => {
          const stored: { day: string; group: string; n: number }[] = [];
          const reader = {
            jsonData: async (q: UsageExportQuery) => renderRows(stored, q),
          } as unknown as UsageExportReader;
          const watermarks = new UsageWatermarks();
          const service = new UsageExportService(
            { isMember: async () => true } as unknown as AccountsService,
            { assertUsable: async () => undefined } as unknown as MetadataKeyService,
            reader,
            new UsageExportCache({ usage: { exportCacheBytes: 2 ** 20 } } as AppConfig),
            watermarks,
          );
          for (const step of steps) {
            if (step.kind === 'write') {
              stored.push(...step.entries);
              const days = step.entries.map((e) => ({ orgId: 'org_a', day: e.day }));
              watermarks.advance(['org_a'], step.daysKnown ? days : []);
              continue;
            }
            const endDate =
              DAYS[Math.min(DAYS.indexOf(step.startDate) + step.length, DAYS.length - 1)];
            const q = query({ startDate: step.startDate, endDate, timeZone: step.timeZone });
            const body = await service.jsonBody(await service.resolve(principal, q));
            expect(JSON.parse(body.toString('utf8')).data).toEqual(
              JSON.parse(`[${renderRows(stored, q)}]`),
            );
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
