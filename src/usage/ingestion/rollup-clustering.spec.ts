import { describe, expect, it } from '@jest/globals';
import { firstMergedRun, MAX_SORTED_RUNS, type SortedRun } from './rollup-clustering.js';

/** Runs after `passes` passes of `rowsPerPass` unsorted rows each (no key repeats), and the rows rewritten. */
function simulate(passes: number, rowsPerPass: (pass: number) => number, base = 0) {
  let runs: SortedRun[] = base > 0 ? [{ run: 1, rows: base }] : [];
  let rewritten = 0;
  let added = 0;
  let worstPass = 0;
  for (let pass = 0; pass < passes; pass++) {
    const unsorted = rowsPerPass(pass);
    added += unsorted;
    const first = firstMergedRun(runs, unsorted);
    const merged = first === null ? [] : runs.filter((r) => r.run >= first);
    const rows = unsorted + merged.reduce((n, r) => n + r.rows, 0);
    const next = runs.length === 0 ? 1 : runs[runs.length - 1].run + 1;
    runs = [...runs.filter((r) => first === null || r.run < first), { run: next, rows }];
    rewritten += rows;
    worstPass = Math.max(worstPass, rows);
    expect(runs.length).toBeLessThanOrEqual(MAX_SORTED_RUNS);
  }
  return { runs, rewritten, added, worstPass };
}

describe('firstMergedRun (which sorted runs a clustering pass merges)', () => {
  it('makes the unsorted rows a run of their own next to a larger run', () => {
    expect(firstMergedRun([{ run: 1, rows: 2_000_000 }], 1_000_000)).toBeNull();
    expect(firstMergedRun([], 10)).toBeNull();
  });

  it('merges the newest runs no larger than what is merged so far, as a binary counter', () => {
    const runs = [
      { run: 1, rows: 1000 },
      { run: 4, rows: 40 },
      { run: 6, rows: 20 },
      { run: 7, rows: 10 },
    ];
    expect(firstMergedRun(runs, 10)).toBe(4);
    expect(firstMergedRun(runs, 9)).toBeNull();
  });

  it('keeps at most MAX_SORTED_RUNS runs, merging the newest first', () => {
    const runs = Array.from({ length: MAX_SORTED_RUNS }, (_, i) => ({
      run: i + 1,
      rows: 2 ** (20 - i),
    }));
    expect(firstMergedRun(runs, 1)).toBe(MAX_SORTED_RUNS);
  });

  it('rewrites each row a bounded number of times over a year of hourly passes', () => {
    const hourly = simulate(24 * 365, () => 1000, 2_000_000);
    // Amortized: a few rewrites per row added, not the history per pass (a whole rewrite
    // every hour would be thousands).
    expect(hourly.rewritten / hourly.added).toBeLessThan(16);
    expect(hourly.runs.reduce((n, r) => n + r.rows, 0)).toBe(2_000_000 + hourly.added);
  });

  it('costs about the new rows for one large batch on a larger store', () => {
    const once = simulate(1, () => 1_000_000, 2_000_000);
    expect(once.rewritten).toBe(1_000_000);
  });

  it('keeps passes of uneven size within the run bound', () => {
    const uneven = simulate(5000, (pass) => ((pass * 7919) % 997) + (pass % 50 === 0 ? 50_000 : 1));
    expect(uneven.rewritten / uneven.added).toBeLessThan(20);
  });
});
