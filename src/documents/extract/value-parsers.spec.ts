import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { findAmounts, parseNumber, parsePercentage, readNumber } from './amounts.js';
import { currencyOf } from './currency-table.js';
import { DATE_LOCALES, documentDateOrder, findDates, monthNumber, parseDate } from './dates.js';
import { announcesIdentifier, kindOf, readValue } from './value-parsers.js';
import type { LayoutLine } from '../parse/layout.types.js';
import { documentContext } from './document-context.js';
import { fallbackFor, scalarField } from './field-search.js';

const day = fc.record({
  year: fc.integer({ min: 1990, max: 2040 }),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.integer({ min: 1, max: 28 }),
});
const iso = (d: { year: number; month: number; day: number }) =>
  `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

describe('dates', () => {
  it.each([
    ['August 3 , 2014', '2014-08-03'],
    ['20-10-2015', '2015-10-20'],
    ['31/12/2017', '2017-12-31'],
    ['02 Juillet 2015', '2015-07-02'],
    ['5. März 2026', '2026-03-05'],
    ['3 de agosto de 2014', '2014-08-03'],
    ['12 stycznia 2020', '2020-01-12'],
    ['18 april 2014', '2014-04-18'],
    ['25/12/2018 8:13:39 PM', '2018-12-25'],
    ['Mar 5 2026', '2026-03-05'],
    ['15 Dec 18', '2018-12-15'],
    ['2026-03-05', '2026-03-05'],
    ['entered into this 1st day of September 2016', '2016-09-01'],
    ['dated as of the 5th day of February, 2020', '2020-02-05'],
  ])('reads %s', (text, expected) => {
    expect(parseDate(text)).toBe(expected);
  });

  it('knows the month names of every locale it lists, long and short, from Intl', () => {
    for (const locale of DATE_LOCALES) {
      for (let month = 1; month <= 12; month++) {
        const date = new Date(Date.UTC(2021, month - 1, 10));
        for (const style of ['long', 'short'] as const) {
          const name = new Intl.DateTimeFormat(locale, { month: style, timeZone: 'UTC' }).format(
            date,
          );
          expect(monthNumber(name)).toBe(month);
        }
      }
    }
  });

  it('reads any date written day-first with a month name in any of its locales', () => {
    fc.assert(
      fc.property(day, fc.constantFrom(...DATE_LOCALES), (d, locale) => {
        const text = new Intl.DateTimeFormat(locale, {
          day: 'numeric',
          month: 'long',
          year: 'numeric',
          timeZone: 'UTC',
        }).format(new Date(Date.UTC(d.year, d.month - 1, d.day)));
        expect(parseDate(text)).toBe(iso(d));
      }),
    );
  });

  it('reads numeric dates in either order, flagging the ones both orders allow', () => {
    fc.assert(
      fc.property(day, fc.constantFrom('/', '.', '-'), (d, sep) => {
        const dd = String(d.day).padStart(2, '0');
        const mm = String(d.month).padStart(2, '0');
        const [found] = findDates(`${dd}${sep}${mm}${sep}${d.year}`, 'dmy');
        expect(found.iso).toBe(iso(d));
        expect(found.ambiguous).toBe(d.day <= 12 && d.day !== d.month);
        expect(findDates(`${mm}${sep}${dd}${sep}${d.year}`, 'mdy')[0].iso).toBe(iso(d));
      }),
    );
  });

  it('takes the order of a document from its unambiguous dates, its month names, else its habits', () => {
    expect(documentDateOrder('Date 03/04/2020, due 25/04/2020', 'en')).toBe('dmy');
    expect(documentDateOrder('Date 03/04/2020, due 04/25/2020', 'en')).toBe('mdy');
    expect(documentDateOrder('Dated August 3, 2020; due 03/09/2020', 'en')).toBe('mdy');
    expect(documentDateOrder('Date 03/04/2020', 'en')).toBe('dmy');
    expect(documentDateOrder('Date 03/04/2020', 'en', new Set(['USD']))).toBe('mdy');
    expect(documentDateOrder('Datum 03/04/2020', 'de')).toBe('dmy');
  });

  it('reads two-way numeric dates in the order that restates the dates written with month names', () => {
    // "the 5th day of February" is day-first in words, its signature line month-first.
    const signed = 'dated as of the 5th day of February, 2020.\nDate: 2-6-2020\nDate: 02-05-2020';
    expect(documentDateOrder(signed, 'en')).toBe('mdy');
    expect(documentDateOrder('Signed on March 2, 2021 in Lyon; Date: 02/03/2021', 'en')).toBe(
      'dmy',
    );
  });

  it("takes as a document's unlabelled date one written in its order before a code-like one", () => {
    const lines = ['CK 11-22-31 - 10/400', 'TOTAL RM 15.90', '19-09-17 15:39 SH01'].map(
      (text, i): LayoutLine => ({
        text,
        bbox: { left: 0.1, top: 0.1 + i * 0.03, width: 0.5, height: 0.02, page: 1 },
        size: 0.02,
        segments: [],
        words: [],
      }),
    );
    const field = scalarField('date', 'date', { type: 'string', format: 'date' });
    expect(fallbackFor(field, lines, documentContext(lines), new Set())?.value).toBe('2017-09-19');
    // Alone, the date valid only month-first is still the answer.
    const alone = lines.slice(0, 2);
    expect(fallbackFor(field, alone, documentContext(alone), new Set())?.value).toBe('2031-11-22');
  });

  it('reads no date in digits glued to letters (a code)', () => {
    expect(findDates('HD03-04-06 - 5/40/160')).toEqual([]);
    expect(findDates('REF INV2020-01-05')).toEqual([]);
    expect(parseDate('19-09-17 15:39 SH01')).toBe('2017-09-19');
  });

  it('reads dates written with a word after year, month and day (Chinese, Japanese, Korean)', () => {
    expect(parseDate('开票日期：2026年3月12日')).toBe('2026-03-12');
    expect(parseDate('2026年 3 月 5日発行')).toBe('2026-03-05');
    expect(parseDate('작성일 2026년 12월 1일')).toBe('2026-12-01');
    expect(findDates('2026年13月1日')).toEqual([]);
    expect(findDates('12026年3月1日')).toEqual([]);
  });

  it('reads Hebrew months, joined to the letter a date writes before them', () => {
    const march19 = new Date(Date.UTC(2024, 2, 19));
    const hebrew = new Intl.DateTimeFormat('he', { dateStyle: 'long', timeZone: 'UTC' });
    expect(parseDate(`תאריך: ${hebrew.format(march19)}`)).toBe('2024-03-19');
    expect(parseDate('19 במרץ 2024')).toBe('2024-03-19');
    expect(parseDate('19 מרץ 2024')).toBe('2024-03-19');
  });

  it('reads Thai months, long and short, and years of the Buddhist era', () => {
    // As the runtime's Thai locale writes them: its calendar counts 2567 for 2024.
    const thai = (options: Intl.DateTimeFormatOptions) =>
      new Intl.DateTimeFormat('th', { ...options, timeZone: 'UTC' }).format(
        new Date(Date.UTC(2024, 2, 19)),
      );
    expect(thai({ dateStyle: 'long' })).toContain('2567');
    expect(parseDate(thai({ dateStyle: 'long' }))).toBe('2024-03-19');
    expect(parseDate(thai({ day: 'numeric', month: 'short', year: 'numeric' }))).toBe('2024-03-19');
    // January and March abbreviate alike but for a vowel sign.
    expect(parseDate('5 ม.ค. 2567')).toBe('2024-01-05');
    expect(parseDate('5 มี.ค. 2567')).toBe('2024-03-05');
    // A Thai month with a Gregorian year keeps it.
    expect(parseDate('19 มีนาคม 2024')).toBe('2024-03-19');
    // Other languages' years are never shifted.
    expect(parseDate('19 March 2567')).toBe('2567-03-19');
  });

  it('reads a month name printed with marks its CLDR name does not carry', () => {
    // Arabic with its short vowels written ("يُولْيُو" for "يوليو").
    expect(parseDate('14 \u064aُ\u0648\u0644\u0652\u064a\u064f\u0648 2021')).toBe('2021-07-14');
  });

  it('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string(), (text) => void findDates(text)));
  });
});

describe('amounts', () => {
  it.each([
    ['34,73', 34.73],
    ['1.250,00 €', 1250],
    ['$1,250.00', 1250],
    ['(300.00)', -300],
    ["CHF 1'200.50", 1200.5],
    ['RM 9.00', 9],
    ['123,45 zł', 123.45],
    ['-12.5', -12.5],
  ])('reads %s', (text, expected) => {
    expect(parseNumber(text)).toBe(expected);
  });

  it('reads a lone separator before three digits as thousands unless the document writes decimal commas', () => {
    expect(readNumber('1,250')).toBe(1250);
    expect(readNumber('1.250', true)).toBe(1250);
    expect(readNumber('1.250')).toBe(1.25);
  });

  it('reads any amount written with decimal comma or point and grouped thousands', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99_999_999 }),
        fc.constantFrom(['.', ','], [',', '.'], ["'", '.']),
        (cents, [thousands, decimal]) => {
          const whole = Math.floor(cents / 100)
            .toString()
            .replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
          const text = `${whole}${decimal}${String(cents % 100).padStart(2, '0')}`;
          expect(parseNumber(text, decimal === ',')).toBeCloseTo(cents / 100, 2);
        },
      ),
    );
  });

  it('maps currency symbols, codes and names to ISO 4217', () => {
    expect(currencyOf('€')).toBe('EUR');
    expect(currencyOf('$')).toBe('USD');
    expect(currencyOf('£')).toBe('GBP');
    expect(currencyOf('zł')).toBe('PLN');
    expect(currencyOf('RM')).toBe('MYR');
    expect(currencyOf('₹')).toBe('INR');
    expect(currencyOf('usd')).toBe('USD');
    expect(currencyOf('euro')).toBe('EUR');
    expect(currencyOf('XYZ')).toBeUndefined();
    expect(findAmounts('Total 12,00 €')[0]).toMatchObject({ value: 12, currency: 'EUR' });
  });

  it.each([
    ['1,250円', 'JPY'],
    ['1,250 円', 'JPY'],
    ['合計 1,250円(税込)', 'JPY'],
    ['1,250元', 'CNY'],
    ['1,250.00 บาท', 'THB'],
    ['1.250,00 Euro', 'EUR'],
    // CLDR's symbols Intl does not format: a variant, another language's narrow symbol.
    ['1 250,00 руб.', 'RUB'],
    ['1 250,00 грн', 'UAH'],
    ['1.250,00 TL', 'TRY'],
    // Two letters, written as the currency's own country writes them.
    ['1 250,00 лв.', 'BGN'],
    ['1.250,00 kn', 'HRK'],
    ['1 250,00 Kč', 'CZK'],
    ['1 250,00 zł', 'PLN'],
    ['1 250 Ft', 'HUF'],
    ['1.250,00 lei', 'RON'],
  ])('reads the currency written as a word after the amount in %s', (text, currency) => {
    const [amount] = findAmounts(text, /,\d{2}(?!\d)/.test(text));
    expect(amount?.currency).toBe(currency);
    expect(amount?.value).toBe(1250);
    // The currency's word is part of the amount as written.
    expect(text.slice(amount.index, amount.index + amount.length)).toMatch(/\p{L}\.?$/u);
  });

  it.each(['3 L', '12 km', '5 ft', '12 months', '2 Stück', '4 tl', '1 250 р.'])(
    'reads no currency in the unit or word after %s',
    (text) => {
      expect(findAmounts(text)[0]?.currency).toBeUndefined();
    },
  );

  it.each([
    ['RM 9.00', 'MYR'],
    ['RM9.00', 'MYR'],
    ['R 100.00', 'ZAR'],
    ['kr 12,50', 'SEK'],
    ['zł 12,50', 'PLN'],
    ['TL 12,50', 'TRY'],
    // A label in capitals writes the symbol in capitals.
    ['RS 50.00', 'INR'],
    ['KČ 100,00', 'CZK'],
  ])(
    'reads the symbol written before the amount in %s as its own countries write it',
    (text, currency) => {
      expect(findAmounts(text, text.includes(','))[0]?.currency).toBe(currency);
    },
  );

  it.each(['R1 000', 'Q4 2024', 'Size S12', 'Size L\n12.00', 'km 12', '12 kg'])(
    'reads no currency before the amount in %s',
    (text) => {
      expect(findAmounts(text).every((amount) => amount.currency === undefined)).toBe(true);
    },
  );

  it('keeps the currency written before a sign ("Rs -40.00", "€ -5,00")', () => {
    expect(findAmounts('Discount of Rs -40.00,')[0]).toMatchObject({ value: -40, currency: 'INR' });
    expect(findAmounts('€ -5,00', true)[0]).toMatchObject({ value: -5, currency: 'EUR' });
    expect(findAmounts('-5.00 EUR')[0]).toMatchObject({ value: -5, currency: 'EUR' });
  });

  it.each([
    ['-42.00', -42],
    ['Total: -12.50', -12.5],
    ['€ -3,00', -3],
    ['balance -7', -7],
    ['EUR-3.00', -3],
    ['(12.00)', -12],
    ['12.00-', -12],
  ])('keeps the minus sign of %s', (text, expected) => {
    expect(findAmounts(text, text.includes('€'))[0]?.value).toBe(expected);
  });

  it.each(['INV-42', 'ABC-12', 'ref INV-42.00 EUR'])(
    'reads no amount in the identifier %s, whose hyphen joins two parts of a word',
    (text) => {
      expect(findAmounts(text)).toEqual([]);
    },
  );

  it('reads no minus sign in a hyphen that joins a number to what follows', () => {
    expect(findAmounts('Invoice INV-42 total 100.00').map((amount) => amount.value)).toEqual([100]);
  });

  it.each([
    'Facture n° 2024-17',
    'Factura Nº 17',
    'Счёт № 17',
    'Rechnung Nr. 17',
    'Invoice No. 17',
    'ORDER NO 17',
    'Invoice #4711',
    'Invoice # 4711',
    '2024-11',
    '2024/17',
    '12/05/2024',
    '2024\u201117',
  ])('reads no amount in the identifier of %s', (text) => {
    expect(findAmounts(text)).toEqual([]);
  });

  it('still reads the amounts beside an identifier, and a number after a word ending in "no"', () => {
    expect(findAmounts('Invoice No. 2024-17 Total: 56,02 €', true).map((a) => a.value)).toEqual([
      56.02,
    ]);
    expect(findAmounts('Order no. 4711, amount 120.50').map((a) => a.value)).toEqual([120.5]);
    expect(findAmounts('Casino 12.00').map((a) => a.value)).toEqual([12]);
    expect(findAmounts('Total: -12.50').map((a) => a.value)).toEqual([-12.5]);
    expect(findAmounts('no 3 items').map((a) => a.value)).toEqual([3]);
  });

  it('reads percentages as the number written', () => {
    expect(parsePercentage('VAT 19 %')).toBe(19);
    expect(parsePercentage('7,5%', true)).toBe(7.5);
  });
});

describe(readValue.name, () => {
  const context = { dateOrder: 'dmy' as const, decimalComma: false };

  it('reads by the kind of the field', () => {
    expect(kindOf('invoice_number', { type: 'string' })).toBe('identifier');
    expect(kindOf('due', { type: 'string', format: 'date' })).toBe('date');
    expect(kindOf('total', { type: 'number' })).toBe('money');
    expect(kindOf('status', { type: 'string', enum: ['paid', 'open'] })).toBe('enum');
    expect(readValue('No. INV-2026-7', 'identifier', {}, context)?.value).toBe('INV-2026-7');
    expect(readValue('Status: PAID', 'enum', { enum: ['paid', 'open'] }, context)?.value).toBe(
      'paid',
    );
    expect(readValue('[x]', 'boolean', {}, context)?.value).toBe(true);
    expect(readValue('no date here', 'date', {}, context)).toBeNull();
  });

  it('reads a number after a number sign as an identifier, never as an amount', () => {
    expect(readValue('Facture n° 2024-17', 'money', {}, context)).toBeNull();
    expect(readValue('Facture n° 2024-17', 'identifier', {}, context)?.value).toBe('2024-17');
    for (const label of [
      'Facture n°',
      'Invoice #',
      'Счёт №',
      'Rechnung Nr.',
      'Order No',
      'Kunden-Nr.',
    ])
      expect(announcesIdentifier(label)).toBe(true);
    for (const label of ['Total', 'Number of items', 'Casino', 'Amount due'])
      expect(announcesIdentifier(label)).toBe(false);
  });
});
