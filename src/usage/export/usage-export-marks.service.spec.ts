import { describe, expect, it } from '@jest/globals';
import type { UsageExportMarksStore } from './usage-export-marks.repository.js';
import { UsageExportMarks } from './usage-export-marks.service.js';

const DAY_MS = 86_400_000;
const past = new Date(Date.now() - 3 * DAY_MS).toISOString().slice(0, 10);

/** A marks store with org `o1` marked, whose first `failures` markChanged calls fail. */
function flakyStore(failures: number) {
  const marked: { orgId: string; days: string[] }[] = [];
  let calls = 0;
  const store: UsageExportMarksStore = {
    shared: true,
    markExported: async () => undefined,
    markedOrgs: async () => ['o1'],
    markChanged: async (orgId, days) => {
      calls++;
      if (calls <= failures) throw new Error(`store unavailable (call ${calls})`);
      marked.push({ orgId, days });
    },
    revisedDays: async () => [],
  };
  return { store, marked, calls: () => calls };
}

describe('UsageExportMarks.recordChanges', () => {
  it('records a change whose first attempt failed (the redelivered write would be a duplicate)', async () => {
    const { store, marked, calls } = flakyStore(1);
    await new UsageExportMarks(store).recordChanges([{ orgId: 'o1', day: past }]);
    expect(calls()).toBe(2);
    expect(marked).toEqual([{ orgId: 'o1', days: [past] }]);
  });

  it('keeps what still fails and records it with the next write, the error surfacing', async () => {
    const { store, marked } = flakyStore(3);
    const marks = new UsageExportMarks(store);
    await expect(marks.recordChanges([{ orgId: 'o1', day: past }])).rejects.toThrow(
      'store unavailable',
    );
    expect(marked).toEqual([]);
    await marks.recordChanges([]);
    expect(marked).toEqual([{ orgId: 'o1', days: [past] }]);
  });

  it('leaves alone orgs that never exported and days not yet over', async () => {
    const { store, marked, calls } = flakyStore(0);
    const today = new Date().toISOString().slice(0, 10);
    await new UsageExportMarks(store).recordChanges([
      { orgId: 'o2', day: past },
      { orgId: 'o1', day: today },
    ]);
    expect(calls()).toBe(0);
    expect(marked).toEqual([]);
  });
});
