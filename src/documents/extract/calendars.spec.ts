import { describe, expect, it } from '@jest/globals';
import { documentCalendar, gregorianOf } from './calendars.js';
import { DATE_LOCALES, findDates } from './dates.js';

describe('dates numbered in another calendar', () => {
  it("converts a day of any of the runtime's calendars to the Gregorian one", () => {
    // Each day as the runtime itself writes 2024-12-31 in that calendar, read back.
    const day = new Date(Date.UTC(2024, 11, 31));
    for (const calendar of ['buddhist', 'persian', 'islamic-umalqura', 'roc', 'indian']) {
      const parts = new Intl.DateTimeFormat(`en-u-ca-${calendar}-nu-latn`, {
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        timeZone: 'UTC',
      }).formatToParts(day);
      const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
      expect(gregorianOf(calendar, part('year'), part('month'), part('day'))).toBe('2024-12-31');
    }
    expect(gregorianOf('buddhist', 2567, 2, 29)).toBe('2024-02-29');
    // No such day, or no such calendar.
    expect(gregorianOf('buddhist', 2567, 2, 30)).toBeNull();
    expect(gregorianOf('persian', 1403, 12, 31)).toBeNull();
    expect(gregorianOf('no-such-calendar', 2567, 1, 1)).toBeNull();
  });

  it("takes a document's calendar from the script most of its letters are in", () => {
    const thai = 'ใบแจ้งหนี้ บริษัท ตัวอย่าง จำกัด วันที่ 31/12/2567 ยอดรวม 1,250.00 บาท';
    expect(documentCalendar(thai, DATE_LOCALES)).toBe('buddhist');
    // Scripts whose likeliest locale counts years as the Gregorian calendar does.
    for (const text of ['Invoice date 31/12/2024', 'Счёт от 31.12.2024', 'חשבונית 31/12/2024'])
      expect(documentCalendar(text, DATE_LOCALES)).toBeUndefined();
    // A Thai name on an English invoice does not make it Thai.
    expect(documentCalendar('Invoice for บริษัท, date 31/12/2024, total 12.00', DATE_LOCALES)).toBe(
      undefined,
    );
  });

  it('reads numeric dates in that calendar when that reading is nearer the present', () => {
    const isoOf = (text: string, calendar?: string) =>
      findDates(text, 'dmy', calendar).map((d) => d.iso);
    expect(isoOf('วันที่ 31/12/2567', 'buddhist')).toEqual(['2024-12-31']);
    expect(isoOf('วันที่ 2567-12-31', 'buddhist')).toEqual(['2024-12-31']);
    expect(isoOf('วันที่ 29.02.2567', 'buddhist')).toEqual(['2024-02-29']);
    // A Gregorian year written in a Thai document stays, as do two-digit years.
    expect(isoOf('วันที่ 31/12/2024', 'buddhist')).toEqual(['2024-12-31']);
    expect(isoOf('วันที่ 31/12/67', 'buddhist')).toEqual(['2067-12-31']);
    // A Persian document's days, months and years.
    expect(isoOf('1403/10/11', 'persian')).toEqual(['2024-12-31']);
    // Without a calendar the year is read as written.
    expect(isoOf('31/12/2567')).toEqual(['2567-12-31']);
  });
});
