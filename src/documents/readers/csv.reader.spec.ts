import { describe, expect, it } from '@jest/globals';
import { csvPages, detectDelimiter } from './csv.reader.js';
import { loadDocument } from './document.loader.js';
import { detectDocumentType } from './file-type.detector.js';
import { officePageText } from './office-blocks.js';

const table = (text: string, preferTab = false) => {
  const [page] = csvPages(text, preferTab);
  return page.blocks.flatMap((block) => (block.kind === 'table' ? [block.rows] : []));
};

describe('csvPages', () => {
  it('detects the delimiter that splits the records evenly', () => {
    expect(detectDelimiter('a,b,c\n1,2,3\n')).toBe(',');
    expect(detectDelimiter('name;amount\n"Smith, J";12,5\nDoe;3,0\n')).toBe(';');
    expect(detectDelimiter('a\tb\n1\t2\n')).toBe('\t');
    expect(detectDelimiter('a|b|c\n1|2|3\n')).toBe('|');
    expect(detectDelimiter('one column\nonly\n')).toBe(',');
  });

  it('reads quoted fields with delimiters, doubled quotes and line breaks in them', () => {
    expect(table('name,note\r\n"Doe, J","said ""hi""\nthen left"\r\nRoe,\r\n\r\n')).toEqual([
      [
        ['name', 'note'],
        ['Doe, J', 'said "hi"\nthen left'],
        ['Roe', ''],
      ],
    ]);
  });

  it('pads short records to the widest', () => {
    expect(table('a,b,c\n1\n')).toEqual([
      [
        ['a', 'b', 'c'],
        ['1', '', ''],
      ],
    ]);
  });

  it('writes one table, the first record its header', () => {
    const [page] = csvPages('Item;Price\nTea;3\n');
    expect(officePageText(page.blocks, 'marked')).toBe(
      '| Item | Price |\n| --- | --- |\n| Tea | 3 |',
    );
  });

  it('is read as CSV when named .csv/.tsv or served as text/csv, else as text', async () => {
    const bytes = Buffer.from('a,b\n1,2\n');
    expect((await detectDocumentType(bytes, 'data.csv')).fileType).toBe('csv');
    expect((await detectDocumentType(bytes, 'data.tsv')).fileType).toBe('csv');
    expect((await detectDocumentType(bytes, 'export', 'text/csv; charset=utf-8')).fileType).toBe(
      'csv',
    );
    expect((await detectDocumentType(bytes, 'data.txt')).fileType).toBe('txt');
    const document = await loadDocument(bytes, 'data.csv');
    expect(document).toMatchObject({ fileType: 'csv', totalPages: 1 });
    expect(document.pages[0].text).toBe('a   b\n1   2');
  });
});
