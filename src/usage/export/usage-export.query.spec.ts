import { describe, expect, it } from '@jest/globals';
import { parseUsageExportQuery } from './usage-export.query.js';

const codeOf = (date: string): string => {
  try {
    return parseUsageExportQuery({ startDate: date, endDate: date }).endDate;
  } catch (error) {
    return (error as { response: { error: { code: string } } }).response.error.code;
  }
};

describe('export dates', () => {
  it('accepts calendar dates, leap days included', () => {
    for (const date of ['2026-02-28', '2024-02-29', '1999-12-31', '2026-12-31', '9999-12-31'])
      expect(codeOf(date)).toBe(date);
  });

  it('refuses dates that do not exist or are not yyyy-mm-dd', () => {
    for (const date of [
      '2026-02-30',
      '2023-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '0099-01-01',
      '2026-1-01',
      '2026/01/01',
    ])
      expect(codeOf(date)).toBe('INVALID_DATE');
  });
});
