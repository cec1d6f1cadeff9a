import { describe, expect, it } from '@jest/globals';
import { dayRanges } from './usage-store.repository.js';

describe('dayRanges (the days a write probes for duplicates)', () => {
  it('joins consecutive days, across month ends, into one range', () => {
    expect(dayRanges(['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-05'])).toEqual([
      ['2026-10-30', '2026-11-01'],
      ['2026-11-05', '2026-11-05'],
    ]);
  });

  it('merges across the smallest gaps when there are too many runs, covering every day', () => {
    const days = ['2026-01-01', '2026-01-03', '2026-01-10', '2026-03-01', '2026-03-03'];
    const ranges = dayRanges(days, 2);
    expect(ranges).toEqual([
      ['2026-01-01', '2026-01-10'],
      ['2026-03-01', '2026-03-03'],
    ]);
    for (const day of days) expect(ranges.some(([a, b]) => a <= day && day <= b)).toBe(true);
  });
});
