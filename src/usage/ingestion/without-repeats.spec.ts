import { describe, expect, it } from '@jest/globals';
import { DEFAULT_NORMALIZER_POLICY } from '../../../test/support/usage-events.js';
import { normalizeToColumns } from './usage-event-columns.js';
import { withoutRepeats } from './usage-store.repository.js';
import type { UsageEventColumns } from '../core/usage-event-columns.types.js';

const NOW = new Date('2026-11-21T12:00:00Z');

function columns(events: { id: string; source?: string; version?: number }[]): UsageEventColumns {
  const payloads = events.map(({ id, source, version }) =>
    JSON.stringify({
      specversion: '1.0',
      id,
      source: source ?? 'docproc/processing',
      type: 'docproc.usage.v1',
      time: '2026-11-20T10:00:00Z',
      data: {
        orgId: 'org_1',
        apiKeyId: 'pk_1',
        product: 'extract',
        feature: 'extract',
        fileType: 'pdf',
        pages: 1,
        async: false,
        credits: '1',
        ...(version ? { version } : {}),
      },
    }),
  );
  const { columns, rejected } = normalizeToColumns(payloads, NOW, DEFAULT_NORMALIZER_POLICY);
  expect(rejected).toEqual([]);
  return columns;
}

/** Each group's kept rows as `source/id@version`. */
function kept(groups: UsageEventColumns[]): string[][] {
  return groups.map((g) =>
    g.eventId.map((id, row) => `${g.dictionary[g.source[row] - 1]}/${id}@${g.version[row]}`),
  );
}

describe('withoutRepeats (one copy of each event per write)', () => {
  it('hands back the very groups when no event id repeats', () => {
    const groups = [columns([{ id: 'a' }, { id: 'b' }]), columns([{ id: 'c' }])];
    const result = withoutRepeats(groups);
    expect(result).toHaveLength(2);
    expect(result[0]).toBe(groups[0]);
    expect(result[1]).toBe(groups[1]);
  });

  it('keeps the first copy of an event repeated within a group and across groups', () => {
    const groups = [columns([{ id: 'a' }, { id: 'b' }, { id: 'a' }]), columns([{ id: 'b' }])];
    expect(kept(withoutRepeats(groups))).toEqual([
      ['docproc/processing/a@1', 'docproc/processing/b@1'],
      [],
    ]);
  });

  it('keeps the same id from two sources as two events', () => {
    const groups = [columns([{ id: 'a', source: 'one' }]), columns([{ id: 'a', source: 'two' }])];
    expect(kept(withoutRepeats(groups))).toEqual([['one/a@1'], ['two/a@1']]);
  });

  it('keeps the highest version of a repeated event, wherever it comes', () => {
    const groups = [
      columns([{ id: 'a' }, { id: 'a', version: 3 }]),
      columns([{ id: 'a', version: 2 }]),
    ];
    expect(kept(withoutRepeats(groups))).toEqual([['docproc/processing/a@3'], []]);
  });
});
