import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { backfillPolicy, normalizeUsageEvent } from './usage-event.normalizer.js';
import { DEFAULT_NORMALIZER_POLICY } from '../../../test/support/usage-events.js';
import { parseCredits, formatCredits } from '../core/decimal-credits.js';
import { groupableEntries, truncateCodePoints } from '../core/metadata-values.js';

const NOW = new Date('2026-11-21T12:00:00Z');

function event(data: Record<string, unknown> = {}, envelope: Record<string, unknown> = {}) {
  return {
    specversion: '1.0',
    id: 'evt_1',
    source: 'docproc/processing',
    type: 'docproc.usage.v1',
    time: '2026-11-21T10:04:05.123Z',
    data: {
      orgId: 'org_1',
      apiKeyId: 'pk_1',
      product: 'classify',
      feature: 'classify',
      fileType: 'pdf',
      pages: 5,
      credits: '2.5',
      async: true,
      metadata: { team: 'risk', batch: 7 },
      ...data,
    },
    ...envelope,
  };
}

function reasonOf(raw: unknown): string | undefined {
  const result = normalizeUsageEvent(raw, NOW, DEFAULT_NORMALIZER_POLICY);
  return result.ok ? undefined : result.rejection.reason;
}

describe('normalizeUsageEvent', () => {
  it('normalizes a valid event: UTC day, canonical credits, metadata as text', () => {
    const result = normalizeUsageEvent(JSON.stringify(event()), NOW, DEFAULT_NORMALIZER_POLICY);
    expect(result).toEqual({
      ok: true,
      event: expect.objectContaining({
        source: 'docproc/processing',
        eventId: 'evt_1',
        day: '2026-11-21',
        credits: '2.500000',
        metadata: { team: 'risk', batch: '7' },
        metadataJson: '{"team":"risk","batch":7}',
      }),
    });
  });

  it('reads every valid RFC 3339 timestamp as Date.parse does, offsets and fractions included', () => {
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    const anyTime = {
      maxFutureSkewMs: Number.MAX_SAFE_INTEGER,
      maxAgeMs: Number.MAX_SAFE_INTEGER,
      lateWindowMs: Number.MAX_SAFE_INTEGER,
    };
    fc.assert(
      fc.property(
        fc.record({
          year: fc.integer({ min: 100, max: 9999 }),
          month: fc.integer({ min: 1, max: 12 }),
          day: fc.integer({ min: 1, max: 28 }),
          hour: fc.integer({ min: 0, max: 23 }),
          minute: fc.integer({ min: 0, max: 59 }),
          second: fc.integer({ min: 0, max: 59 }),
          fraction: fc.option(fc.stringMatching(/^[0-9]{1,9}$/), { nil: undefined }),
          offset: fc.option(fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }), {
            nil: undefined,
          }),
        }),
        (t) => {
          const zone =
            t.offset === undefined
              ? 'Z'
              : `${t.offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(t.offset) / 60))}:${pad(Math.abs(t.offset) % 60)}`;
          const text = `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${t.fraction === undefined ? '' : `.${t.fraction}`}${zone}`;
          const result = normalizeUsageEvent(event({}, { time: text }), NOW, anyTime);
          expect(result.ok && result.event.eventTime).toBe(new Date(text).toISOString());
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses calendar dates that do not exist, leap days included', () => {
    expect(reasonOf(event({}, { time: '2026-02-29T00:00:00Z' }))).toBe('invalid_time');
    expect(reasonOf(event({}, { time: '2026-04-31T00:00:00Z' }))).toBe('invalid_time');
    const leap = normalizeUsageEvent(event({}, { time: '2024-02-29T00:00:00Z' }), NOW, {
      maxFutureSkewMs: 0,
      maxAgeMs: Number.MAX_SAFE_INTEGER,
      lateWindowMs: Number.MAX_SAFE_INTEGER,
    });
    expect(leap.ok && leap.event.day).toBe('2024-02-29');
  });

  it('takes the UTC day of an offset timestamp', () => {
    const result = normalizeUsageEvent(
      event({}, { time: '2026-11-21T01:30:00+03:00' }),
      NOW,
      DEFAULT_NORMALIZER_POLICY,
    );
    expect(result.ok && result.event.day).toBe('2026-11-20');
  });

  it('drops metadata of sync requests so their usage lands in unknown', () => {
    const result = normalizeUsageEvent(event({ async: false }), NOW, DEFAULT_NORMALIZER_POLICY);
    expect(result.ok && result.event.metadata).toEqual({});
    expect(result.ok && result.event.metadataJson).toBeNull();
  });

  it('keeps non-object metadata out of grouping', () => {
    for (const metadata of [['a'], 'text', 7, null]) {
      const result = normalizeUsageEvent(event({ metadata }), NOW, DEFAULT_NORMALIZER_POLICY);
      expect(result.ok && result.event.metadata).toEqual({});
    }
  });

  it.each([
    ['not json', '{"specversion":', 'malformed_json'],
    ['an array', [], 'invalid_envelope'],
    ['a wrong specversion', event({}, { specversion: '0.3' }), 'invalid_envelope'],
    ['a wrong type', event({}, { type: 'other' }), 'unsupported_type'],
    ['no id', event({}, { id: undefined }), 'missing_field'],
    ['a numeric id', event({}, { id: 5 }), 'wrong_type'],
    ['no data', event({}, { data: undefined }), 'missing_field'],
    ['no orgId', event({ orgId: undefined }), 'missing_field'],
    ['an unknown product', event({ product: 'teleport' }), 'unknown_product'],
    ['negative credits', event({ credits: '-1.5' }), 'negative_credits'],
    ['negative numeric credits', event({ credits: -0.01 }), 'negative_credits'],
    ['7 fractional digits', event({ credits: '1.0000001' }), 'invalid_credits'],
    ['credits as text', event({ credits: 'lots' }), 'invalid_credits'],
    ['fractional pages', event({ pages: 1.5 }), 'wrong_type'],
    ['a string async', event({ async: 'yes' }), 'wrong_type'],
    ['a bad time', event({}, { time: 'yesterday' }), 'invalid_time'],
    ['an impossible date', event({}, { time: '2026-02-30T00:00:00Z' }), 'invalid_time'],
    ['a time far in the future', event({}, { time: '2026-11-21T12:10:00Z' }), 'time_skew'],
    ['a time years ago', event({}, { time: '2020-01-01T00:00:00Z' }), 'time_skew'],
    [
      'a time past the late-event window',
      event({}, { time: '2026-08-23T11:59:59Z' }),
      'late_event',
    ],
  ])('refuses %s', (_name, raw, reason) => {
    expect(reasonOf(raw)).toBe(reason);
  });

  it('accepts an event exactly at the edge of the late-event window, and a backfill past it', () => {
    // NOW minus exactly 90 days is still inside; one second more is late.
    const edge = event({}, { time: '2026-08-23T12:00:00Z' });
    expect(reasonOf(edge)).toBeUndefined();
    const late = event({}, { time: '2026-07-01T00:00:00Z' });
    const result = normalizeUsageEvent(late, NOW, DEFAULT_NORMALIZER_POLICY);
    expect(result.ok || result.rejection.detail).toMatch(/late-event window of 90 days/);
    expect(normalizeUsageEvent(late, NOW, backfillPolicy(DEFAULT_NORMALIZER_POLICY)).ok).toBe(true);
  });

  it('accepts a small clock skew into the future', () => {
    expect(reasonOf(event({}, { time: '2026-11-21T12:04:00Z' }))).toBeUndefined();
  });
});

describe('credits', () => {
  it.each([
    ['0', '0.000000'],
    ['007.5', '7.500000'],
    ['123456789012.123456', '123456789012.123456'],
    ['-0', '0.000000'],
  ])('parses %s exactly', (raw, expected) => {
    expect(parseCredits(raw)).toEqual({ ok: true, value: expected });
  });

  it('parses JSON numbers through their shortest text', () => {
    expect(parseCredits(0.1)).toEqual({ ok: true, value: '0.100000' });
  });

  it('refuses 13 integer digits', () => {
    expect(parseCredits('1234567890123').ok).toBe(false);
  });

  it('formats without trailing zeros', () => {
    expect(formatCredits('12.500000')).toBe('12.5');
    expect(formatCredits('3.000000')).toBe('3');
    expect(formatCredits('0.000000')).toBe('0');
  });
});

describe('metadata values', () => {
  it('truncates to 256 code points without splitting surrogate pairs', () => {
    const emoji = '😀'.repeat(300);
    const truncated = truncateCodePoints(emoji);
    expect([...truncated]).toHaveLength(256);
    expect(truncated.length).toBe(512);
  });

  it('compares numbers and booleans as text and skips non-scalars', () => {
    expect(groupableEntries({ a: 1.5, b: true, c: null, d: { x: 1 }, e: [1], f: 'x' })).toEqual({
      a: '1.5',
      b: 'true',
      f: 'x',
    });
  });
});
