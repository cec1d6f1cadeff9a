import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { normalizeUsageEvent } from './usage-event.normalizer.js';
import { DEFAULT_NORMALIZER_POLICY } from '../../../test/support/usage-events.js';
import {
  creditsText,
  eventTimeText,
  normalizeToColumns,
  selectRows,
} from './usage-event-columns.js';
import type { UsageEventColumns } from '../core/usage-event-columns.types.js';
import type { NormalizedUsageEvent } from './normalized-usage-event.js';

const NOW = new Date('2026-11-21T12:00:00Z');

function event(id: string, data: Record<string, unknown> = {}): string {
  return JSON.stringify({
    specversion: '1.0',
    id,
    source: 'docproc/processing',
    type: 'docproc.usage.v1',
    time: '2026-11-20T23:59:59.5+01:00',
    data: {
      orgId: 'org_1',
      apiKeyId: 'pk_1',
      product: 'extract',
      feature: 'extract',
      fileType: 'pdf',
      pages: 3,
      credits: '6',
      jobId: `job_${id}`,
      async: true,
      metadata: { team: 'risk', batch: 7 },
      ...data,
    },
  });
}

/** Row `row` of the columns as the event object the normalizer makes. */
function rowOf(columns: UsageEventColumns, row: number): NormalizedUsageEvent {
  const text = (code: number) => columns.dictionary[code - 1];
  const metadata: Record<string, string> = {};
  const entries = columns.comboEntries;
  for (let i = 0; i < entries.combo.length; i++) {
    if (entries.combo[i] === columns.combo[row])
      metadata[text(entries.key[i])] = text(entries.value[i]);
  }
  return {
    source: text(columns.source[row]),
    eventId: columns.eventId[row],
    orgId: text(columns.org[row]),
    eventTime: eventTimeText(columns, row),
    eventTimeMs: columns.eventTimeMs[row],
    day: text(columns.day[row]),
    product: text(columns.product[row]) as NormalizedUsageEvent['product'],
    feature: text(columns.feature[row]),
    apiKeyId: text(columns.apiKey[row]),
    fileType: text(columns.fileType[row]),
    pages: columns.pages[row],
    version: columns.version[row],
    credits: creditsText(columns, row),
    jobId: columns.jobId[row],
    isAsync: columns.isAsync[row] === 1,
    metadataJson: columns.metadataJson[row],
    metadata,
  };
}

describe('normalizeToColumns', () => {
  it('holds every accepted event exactly as the normalizer makes it, refusals by input index', () => {
    const payloads = [
      Buffer.from(event('a')),
      'not json',
      event('b', { async: false, jobId: null, metadata: null, orgId: 'org_2' }),
      null,
      event('c', { metadata: { batch: 7, team: 'risk' } }),
      event('d', { product: 'teleport' }),
    ];
    const { columns, inputIndex, rejected } = normalizeToColumns(
      payloads,
      NOW,
      DEFAULT_NORMALIZER_POLICY,
    );
    expect(columns.length).toBe(3);
    expect([...inputIndex]).toEqual([0, 2, 4]);
    for (let row = 0; row < columns.length; row++) {
      const expected = normalizeUsageEvent(
        payloads[inputIndex[row]],
        NOW,
        DEFAULT_NORMALIZER_POLICY,
      );
      expect(expected.ok && rowOf(columns, row)).toEqual(expected.ok && expected.event);
    }
    expect(rejected.map((r) => [r.index, r.rejection.reason])).toEqual([
      [1, 'malformed_json'],
      [3, 'invalid_envelope'],
      [5, 'unknown_product'],
    ]);
  });

  it('interns repeated text once and stores each metadata combination once, whatever the key order', () => {
    const { columns } = normalizeToColumns(
      [event('a'), event('b'), event('c', { metadata: { batch: 7, team: 'risk' } })],
      NOW,
      DEFAULT_NORMALIZER_POLICY,
    );
    expect(columns.dictionary.filter((t) => t === 'org_1')).toHaveLength(1);
    expect(columns.combo[0]).toBe(columns.combo[1]);
    // Another key order is another combination, with the same entries.
    expect(columns.combo[2]).not.toBe(columns.combo[0]);
    expect(rowOf(columns, 2).metadata).toEqual(rowOf(columns, 0).metadata);
    expect(columns.comboEntries.combo).toHaveLength(4);
  });

  it('keeps the rows selectRows chooses, in order, with the same dictionary', () => {
    const { columns } = normalizeToColumns(
      ['a', 'b', 'c', 'd'].map((id, i) => event(id, { pages: i, async: i % 2 === 0 })),
      NOW,
      DEFAULT_NORMALIZER_POLICY,
    );
    const odd = selectRows(columns, (row) => row % 2 === 1);
    expect(odd.length).toBe(2);
    expect([rowOf(odd, 0), rowOf(odd, 1)]).toEqual([rowOf(columns, 1), rowOf(columns, 3)]);
    expect(odd.pages).toBeInstanceOf(Int32Array);
    expect(odd.isAsync).toBeInstanceOf(Uint8Array);
  });

  it('never throws on arbitrary payloads: each is a row or a refusal', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string(),
            fc.jsonValue(),
            fc.uint8Array().map((b) => Buffer.from(b)),
          ),
        ),
        (payloads) => {
          const { columns, rejected } = normalizeToColumns(
            payloads,
            NOW,
            DEFAULT_NORMALIZER_POLICY,
          );
          expect(columns.length + rejected.length).toBe(payloads.length);
        },
      ),
    );
  });
});
