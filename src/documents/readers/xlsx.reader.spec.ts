import { describe, expect, it } from '@jest/globals';
import { makeXlsx } from '../../../test/support/office-documents.js';
import { loadDocument } from './document.loader.js';
import { officePageText } from './office-blocks.js';
import { xlsxPages } from './xlsx.reader.js';
import { serialDate, shownNumber } from './xlsx-values.js';

const texts = async (bytes: Buffer) =>
  (await xlsxPages(bytes)).map((page) => officePageText(page.blocks, 'marked'));

describe('xlsxPages', () => {
  it('reads each sheet with text as a page: its name a heading, its used range a table', async () => {
    const book = await makeXlsx([
      {
        name: 'Invoices',
        rows: [
          ['Number', 'Issued', 'Paid', 'Amount'],
          ['A-1', { date: 45292 }, true, 12.5],
          ['A-2', { date: 45293.5 }, false, { inline: 'n/a' }],
        ],
      },
      { name: 'Lookup', rows: [['hidden codes']], hidden: true },
      { name: 'Blank', rows: [] },
      { name: 'Notes', rows: [['checked']] },
    ]);
    expect(await texts(book)).toEqual([
      '# Invoices\n\n| Number | Issued | Paid | Amount |\n| --- | --- | --- | --- |\n' +
        '| A-1 | 2024-01-01 | TRUE | 12.5 |\n| A-2 | 2024-01-02 12:00 | FALSE | n/a |',
      '# Notes\n\nchecked',
    ]);
  });

  it("keeps a merged range's text once, parts tables at empty rows, leaves empty columns out", async () => {
    const book = await makeXlsx([
      {
        name: 'Report',
        firstRow: 3,
        rows: [
          ['Quarter report', 'stale', null, null],
          [null, null, null, null],
          [null, 'Region', null, 'Sales'],
          [null, 'EMEA', null, 10],
        ],
        merges: ['A3:D3'],
      },
    ]);
    expect(await texts(book)).toEqual([
      '# Report\n\nQuarter report\n\n| Region | Sales |\n| --- | --- |\n| EMEA | 10 |',
    ]);
  });

  it('keeps blocks side by side in one table, as a form keeps its labels beside their values', async () => {
    const book = await makeXlsx([
      {
        name: 'Form',
        rows: [
          ['Invoice', null, null, 'No.', 'A-7'],
          ['Customer', null, 'ACME', null, null],
          [null, null, null, null, null],
          ['Item', 'Price', null, null, null],
          ['Tea', 3, null, null, null],
        ],
      },
    ]);
    expect(await texts(book)).toEqual([
      '# Form\n\n| Invoice |  | No. | A-7 |\n| --- | --- | --- | --- |\n| Customer | ACME |  |  |\n\n' +
        '| Item | Price |\n| --- | --- |\n| Tea | 3 |',
    ]);
  });

  it('reads a sheet whose dimension claims the whole grid by the cells it holds', async () => {
    const book = await makeXlsx([
      { name: 'Claims', rows: [['a', 'b']], dimension: 'A1:XFD1048576', merges: ['A5:XFD1048576'] },
    ]);
    const started = process.cpuUsage();
    expect(await texts(book)).toEqual(['# Claims\n\n| a | b |\n| --- | --- |']);
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(2_000);
  });

  it('reads dates in the 1904 date system', async () => {
    const book = await makeXlsx([{ name: 'Mac', rows: [[{ date: 0 }, { date: 1 }]] }], {
      date1904: true,
    });
    expect(await texts(book)).toEqual(['# Mac\n\n| 1904-01-01 | 1904-01-02 |\n| --- | --- |']);
  });

  it('is a workbook of sheets, without page sizes', async () => {
    const book = await makeXlsx([
      { name: 'One', rows: [['x']] },
      { name: 'Two', rows: [['y']] },
    ]);
    const document = await loadDocument(book, 'book.xlsx');
    expect(document).toMatchObject({ fileType: 'xlsx', totalPages: 2 });
    expect(document.pages.map((page) => [page.text, page.size])).toEqual([
      ['One\n\nx', undefined],
      ['Two\n\ny', undefined],
    ]);
  });
});

describe('cell numbers as shown', () => {
  it('turns date serials into ISO dates, around the 1900 leap-year slot', () => {
    expect(serialDate(1, 'date', false)).toBe('1900-01-01');
    expect(serialDate(59, 'date', false)).toBe('1900-02-28');
    expect(serialDate(61, 'date', false)).toBe('1900-03-01');
    expect(serialDate(45292.75, 'date', false)).toBe('2024-01-01 18:00');
    expect(serialDate(0.5, 'time', false)).toBe('12:00');
  });

  it('shows percentages as such and other numbers as stored', () => {
    expect(shownNumber('0.125', 'percent', false)).toBe('12.5%');
    expect(shownNumber('1234.5', 'number', false)).toBe('1234.5');
    expect(shownNumber('#REF!', 'date', false)).toBe('#REF!');
  });
});
