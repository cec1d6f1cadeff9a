import { describe, expect, it } from '@jest/globals';
import { parseUsageExportQuery } from './usage-export.query.js';
import { buildExportSql } from './usage-export.sql.js';
import {
  BUCKET_START_QUARTERS,
  bucketWindow,
  localDaysFitBuckets,
  offsetSegments,
  parseTimeZone,
} from '../core/time-zone.js';

const errorOf = (work: () => unknown): unknown => {
  try {
    work();
    return null;
  } catch (error) {
    return (error as { response: { error: unknown } }).response.error;
  }
};

/** Whether the zone's local days of the period start on buckets the rollups keep. */
function fits(zone: string, startDate: string, endDate: string): boolean {
  const { from, to } = bucketWindow(startDate, endDate);
  return localDaysFitBuckets(offsetSegments(zone, startDate, endDate), from, to);
}

describe('time zones of the export', () => {
  it('reads the events where the buckets do not fit, and says so where only the rollups are kept', () => {
    const query = parseUsageExportQuery(
      { timeZone: 'America/Caracas', startDate: '2015-06-01', endDate: '2015-06-30' },
      new Date('2026-11-26T12:00:00Z'),
    );
    expect(buildExportSql(query, 'org_1', '0', true).sql).not.toContain('usage_quarter_hour');
    expect(errorOf(() => buildExportSql(query, 'org_1', '0', false))).toEqual(
      expect.objectContaining({ code: 'TIME_ZONE_NOT_SUPPORTED', parameter: 'timeZone' }),
    );
    const current = { ...query, startDate: '2026-06-01', endDate: '2026-06-30' };
    expect(buildExportSql(current, 'org_1', '0', false).sql).toContain('usage_quarter_hour');
  });

  it('cuts an hour into buckets only where a zone in use starts its day within it', () => {
    const startsOf = (hour: number) => BUCKET_START_QUARTERS.slice(hour * 4, hour * 4 + 4);
    expect(startsOf(6)).toEqual([0, 0, 0, 0]); // one bucket
    expect(startsOf(18)).toEqual([0, 1, 2, 2]); // Nepal 18:15, India 18:30
    expect(startsOf(10)).toEqual([0, 1, 1, 1]); // Chatham in summer 10:15
    expect(startsOf(3)).toEqual([0, 0, 2, 2]); // St John's in winter 03:30
  });

  it('reads the stored buckets for the zones in use, not for a day start they do not keep', () => {
    for (const zone of [
      'UTC',
      'America/New_York',
      'Europe/Berlin',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'America/St_Johns',
      'Pacific/Chatham',
      'Australia/Lord_Howe',
      'Australia/Adelaide',
      'Australia/Eucla',
      'Asia/Tehran',
      'Asia/Kabul',
      'Asia/Yangon',
      'Pacific/Marquesas',
    ]) {
      expect({ zone, fits: fits(zone, '2026-01-01', '2026-12-31') }).toEqual({ zone, fits: true });
    }
    // Caracas kept -04:30 until May 2016: its days started at 04:30 UTC, an hour kept whole.
    expect(fits('America/Caracas', '2015-06-01', '2015-06-30')).toBe(false);
    expect(fits('America/Caracas', '2016-06-01', '2016-06-30')).toBe(true);
    // Only the days the period needs count: the days around the change to -04:00 do not fit.
    expect(fits('America/Caracas', '2016-04-25', '2016-05-05')).toBe(false);
    expect(fits('America/Caracas', '2016-05-03', '2016-05-20')).toBe(true);
  });

  it('finds the offset changes of a period to the second', () => {
    expect(offsetSegments('America/New_York', '2026-01-01', '2026-12-31')).toEqual({
      transitions: [
        Date.parse('2026-03-08T07:00:00Z') / 1000,
        Date.parse('2026-11-01T06:00:00Z') / 1000,
      ],
      offsets: [-5 * 3600, -4 * 3600, -5 * 3600],
    });
    expect(offsetSegments('Europe/Berlin', '2026-10-20', '2026-10-30')).toEqual({
      transitions: [Date.parse('2026-10-25T01:00:00Z') / 1000],
      offsets: [2 * 3600, 3600],
    });
    expect(offsetSegments('Asia/Kolkata', '2025-12-01', '2026-02-01')).toEqual({
      transitions: [],
      offsets: [19_800],
    });
    // Southern hemisphere, across the new year: DST at both ends.
    expect(offsetSegments('Australia/Adelaide', '2025-12-01', '2026-12-01').offsets).toEqual([
      37_800, 34_200, 37_800,
    ]);
  });

  it('names zones as the IANA database does, whatever their case, and refuses unknown ones', () => {
    expect(parseTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(parseTimeZone('utc')).toBe('UTC');
    expect(parseTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    for (const name of ['Mars/Base', 'UTC+5', '', '\ud800']) {
      expect(errorOf(() => parseTimeZone(name))).toEqual(
        expect.objectContaining({ code: 'INVALID_TIME_ZONE', parameter: 'timeZone' }),
      );
    }
  });

  it('refuses a period in which the zone keeps a local mean time (not whole quarter hours)', () => {
    expect(
      errorOf(() =>
        parseUsageExportQuery({
          startDate: '1970-01-01',
          endDate: '1970-12-31',
          timeZone: 'Africa/Monrovia',
        }),
      ),
    ).toEqual(expect.objectContaining({ code: 'TIME_ZONE_NOT_SUPPORTED', parameter: 'timeZone' }));
    expect(
      parseUsageExportQuery({
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        timeZone: 'Pacific/Chatham',
      }).timeZone,
    ).toBe('Pacific/Chatham');
  });

  it('defaults the period to the last 30 local days', () => {
    const lateEvening = new Date('2026-11-26T03:00:00Z');
    expect(parseUsageExportQuery({ timeZone: 'America/New_York' }, lateEvening)).toEqual(
      expect.objectContaining({ startDate: '2026-10-26', endDate: '2026-11-25' }),
    );
    expect(parseUsageExportQuery({}, lateEvening)).toEqual(
      expect.objectContaining({ startDate: '2026-10-27', endDate: '2026-11-26' }),
    );
  });
});

describe('two grouping dimensions', () => {
  it('reads them repeated or as a comma list, in order', () => {
    for (const groupBy of [['feature', 'metadata'], 'feature,metadata', ['feature', ' metadata']]) {
      expect(parseUsageExportQuery({ groupBy, metadataKey: 'team' })).toEqual(
        expect.objectContaining({ groupBy: 'feature', secondGroupBy: 'metadata' }),
      );
    }
    expect(parseUsageExportQuery({ groupBy: 'api_key' }).secondGroupBy).toBeNull();
  });

  it('needs metadataKey when metadata is the second dimension', () => {
    expect(errorOf(() => parseUsageExportQuery({ groupBy: 'product,metadata' }))).toEqual(
      expect.objectContaining({ code: 'METADATA_KEY_REQUIRED' }),
    );
  });
});
