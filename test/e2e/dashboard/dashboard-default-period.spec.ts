import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parseUsageExportQuery } from '../../../src/usage/export/usage-export.query.js';

// The dashboard's own module as the browser loads it (plain JavaScript, no build step).
const USAGE_QUERY = path.resolve(
  import.meta.dirname,
  '../../../src/dashboard/assets/usage-query.js',
);

type PresetRange = (preset: string, now: Date, timeZone: string) => { start: string; end: string };

const ZONES = [
  'UTC',
  'America/Los_Angeles',
  'America/New_York',
  'Europe/Berlin',
  'Asia/Kolkata',
  'Asia/Tokyo',
  'Australia/Sydney',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
];

describe("the dashboard's Last 30 days and the export's default period", () => {
  it('are the same days at every hour of a year, in every offered zone and the extreme ones', async () => {
    const { presetRange } = (await import(USAGE_QUERY)) as { presetRange: PresetRange };
    const differing: string[] = [];
    // Every 7 hours through 2026: every hour of the day is met, and both DST changes.
    for (let at = Date.UTC(2026, 0, 1); at < Date.UTC(2027, 0, 1); at += 7 * 3_600_000) {
      const now = new Date(at);
      for (const timeZone of ZONES) {
        const page = presetRange('30d', now, timeZone);
        const query = parseUsageExportQuery(timeZone === 'UTC' ? {} : { timeZone }, now);
        if (page.start !== query.startDate || page.end !== query.endDate) {
          differing.push(
            `${now.toISOString()} ${timeZone}: page ${page.start}..${page.end}, export ${query.startDate}..${query.endDate}`,
          );
        }
      }
    }
    expect(differing.slice(0, 5)).toEqual([]);
  });

  it('is 31 days with both ends, as every "Last N days" is N days before today through today', async () => {
    const { presetRange } = (await import(USAGE_QUERY)) as { presetRange: PresetRange };
    const now = new Date('2026-03-31T12:00:00Z');
    expect(presetRange('30d', now, 'UTC')).toEqual({ start: '2026-03-01', end: '2026-03-31' });
    expect(presetRange('7d', now, 'UTC')).toEqual({ start: '2026-03-24', end: '2026-03-31' });
    expect(presetRange('90d', now, 'UTC')).toEqual({ start: '2025-12-31', end: '2026-03-31' });
  });
});
