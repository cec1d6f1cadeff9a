import { describe, expect, it } from '@jest/globals';
import { exportQuery } from '../../../test/support/usage-export-query.js';
import { buildExportSql } from './usage-export.sql.js';
import type { UsageExportQuery } from './usage-export.query.js';

const query = (overrides: Partial<UsageExportQuery>): UsageExportQuery =>
  exportQuery({
    startDate: '2026-10-28',
    endDate: '2026-11-26',
    timeZone: 'America/New_York',
    ...overrides,
  });

/** `$n` placeholders a statement uses. */
const placeholders = (sql: string) => new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => m[1]));

describe('export statements over the quarter-hour rollups (record 0407)', () => {
  const questions = [
    query({}),
    query({ timeZone: 'Asia/Kolkata', groupBy: 'metadata', metadataKey: 'team' }),
    query({ timeZone: 'UTC', secondGroupBy: 'file_type' }),
    query({ timeZone: 'UTC', groupBy: 'metadata', secondGroupBy: 'product', metadataKey: 'team' }),
  ];

  it('reads the rollups alone and asks, in the same statement, for events past the watermark', () => {
    for (const q of questions) {
      const rolledOnly = buildExportSql(q, 'org_a', '41', true, 'rolled-only');
      expect(rolledOnly.sql).not.toContain('usage_events');
      expect(rolledOnly.unrolled).toMatch(/^EXISTS \(SELECT 1 FROM usage_events WHERE batch_id > /);
      expect(rolledOnly.unrolled).toContain('CAST(41 AS BIGINT)');
      // Every parameter is used by the statement and its condition together.
      const used = placeholders(`${rolledOnly.sql} ${rolledOnly.unrolled}`);
      expect(used.size).toBe(rolledOnly.params.length);
    }
  });

  it('adds the events itself otherwise, and then has nothing to ask', () => {
    for (const q of questions) {
      const all = buildExportSql(q, 'org_a', '41', true, 'with-unrolled');
      expect(all.sql).toContain('usage_events');
      expect(all.unrolled).toBe('false');
      expect(placeholders(all.sql).size).toBe(all.params.length);
    }
  });

  it('leaves the UTC one-dimension exports on the daily rollups, with nothing to ask', () => {
    const daily = buildExportSql(query({ timeZone: 'UTC' }), 'org_a', '41', true, 'rolled-only');
    expect(daily.sql).not.toContain('quarter');
    expect(daily.unrolled).toBe('false');
  });
});

describe('the narrow quarter-hour rollups (record 0408)', () => {
  const tablesOf = (sql: string) =>
    new Set([...sql.matchAll(/\busage_quarter_hour\w*/g)].map((m) => m[0]));

  it('answer a zone grouped by one dimension, or by a metadata key with its unknown bucket', () => {
    const byProduct = buildExportSql(query({}), 'org_a', '41', true, 'rolled-only');
    expect(tablesOf(byProduct.sql)).toEqual(new Set(['usage_quarter_hour_dimension']));
    const byKey = query({ timeZone: 'Asia/Kolkata', groupBy: 'metadata', metadataKey: 'team' });
    expect(tablesOf(buildExportSql(byKey, 'org_a', '41', true, 'rolled-only').sql)).toEqual(
      new Set(['usage_quarter_hour_dimension', 'usage_quarter_hour_metadata_value']),
    );
  });

  it('leave two dimensions, filters and the benchmark-only full-only statement to the full tables', () => {
    const full = ['usage_quarter_hour'];
    for (const [q, tables] of [
      [query({ secondGroupBy: 'file_type' }), full],
      [query({ apiKeys: ['pk_1'] }), full],
      [query({ metadataKey: 'team', metadataValues: ['risk'] }), ['usage_quarter_hour_metadata']],
    ] as const) {
      expect(tablesOf(buildExportSql(q, 'org_a', '41', true, 'rolled-only').sql)).toEqual(
        new Set(tables),
      );
    }
    const fullOnly = buildExportSql(query({}), 'org_a', '41', true, 'rolled-only', 'full-only');
    expect(tablesOf(fullOnly.sql)).toEqual(new Set(full));
  });
});

describe('zones at offset 0 throughout the period', () => {
  const reads = (q: UsageExportQuery) => buildExportSql(q, 'org_a', '41', true, 'rolled-only').sql;

  it('read the daily rollups, as UTC does', () => {
    const utc = reads(query({ timeZone: 'UTC' }));
    expect(utc).toContain('usage_daily_dimension');
    for (const timeZone of ['Etc/UTC', 'GMT', 'Africa/Abidjan']) {
      expect(reads(query({ timeZone }))).toBe(utc);
    }
    // London keeps GMT from late October to late March.
    const winter = { startDate: '2026-11-01', endDate: '2027-02-28' };
    expect(reads(query({ timeZone: 'Europe/London', ...winter }))).toBe(
      reads(query({ timeZone: 'UTC', ...winter })),
    );
  });

  it('but not when the offset differs from 0 at any time around the period', () => {
    // London's summer time ends at 01:00 UTC on 2026-10-25, the first day of this period.
    for (const [timeZone, startDate, endDate] of [
      ['Europe/London', '2026-10-25', '2026-11-26'],
      ['Europe/London', '2026-06-01', '2026-06-30'],
      ['Europe/London', '2026-11-01', '2027-03-31'],
      ['Atlantic/Azores', '2026-11-01', '2026-11-30'],
    ] as const) {
      expect(reads(query({ timeZone, startDate, endDate }))).toContain('usage_quarter_hour');
    }
  });
});
