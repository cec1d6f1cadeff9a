import { afterEach, describe, expect, it } from '@jest/globals';
import JSZip from 'jszip';
import { loadDocument } from '../../src/documents/readers/document.loader.js';
import {
  DEFAULT_DOCUMENT_LIMITS,
  DocumentLimitError,
  setDocumentLimits,
} from '../../src/documents/readers/document-limits.js';
import { CorruptDocumentError } from '../../src/documents/readers/document.errors.js';
import { loadLayoutDocuments } from '../../src/documents/parse/layout.loader.js';
import { makeOfficeBomb } from '../support/bombs.js';
import { makePptx, makeXlsx, numericSheetXml } from '../support/office-documents.js';

afterEach(() => setDocumentLimits(DEFAULT_DOCUMENT_LIMITS));

/** The error `promise` rejects with. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

/** CPU milliseconds `work` takes (a loaded machine stretches only the wall-clock). */
async function cpuMilliseconds(work: () => Promise<unknown>): Promise<number> {
  const started = process.cpuUsage();
  await work();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

describe('slide decks, workbooks and CSV files past the input limits', () => {
  it('refuses a PPTX or XLSX whose XML inflates past the size or ratio limit, from its directory', async () => {
    for (const [part, name] of [
      ['ppt/slides/slide1.xml', 'bomb.pptx'],
      ['xl/worksheets/sheet1.xml', 'bomb.xlsx'],
    ]) {
      const bomb = await makeOfficeBomb(part, 300 * 1024 * 1024);
      expect(bomb.length).toBeLessThan(2_000_000);
      const rss = process.memoryUsage.rss();
      const error = await rejection(loadDocument(bomb, name));
      expect(error).toBeInstanceOf(DocumentLimitError);
      expect((error as DocumentLimitError).limit).toBe('MAX_ZIP_UNCOMPRESSED_BYTES');
      expect(process.memoryUsage.rss() - rss).toBeLessThan(100 * 1024 * 1024);
    }
    setDocumentLimits({ ...DEFAULT_DOCUMENT_LIMITS, maxZipUncompressedBytes: 2 ** 40 });
    const ratio = await rejection(
      loadDocument(await makeOfficeBomb('xl/worksheets/sheet1.xml', 64 * 1024 * 1024), 'b.xlsx'),
    );
    expect((ratio as DocumentLimitError).limit).toBe('MAX_ZIP_COMPRESSION_RATIO');
  });

  it('refuses XML nested past MAX_MARKUP_DEPTH (422) and a part declaring a document type as corrupt', async () => {
    const deep = await makePptx([{ shapes: [{ title: 'Deep' }] }], {
      extraParts: { 'ppt/slides/slide9.xml': `<p:sld>${'<p:grpSp>'.repeat(100_000)}</p:sld>` },
    });
    const error = await rejection(loadDocument(deep, 'deep.pptx'));
    expect(error).toBeInstanceOf(DocumentLimitError);
    expect(error).toMatchObject({ limit: 'MAX_MARKUP_DEPTH', status: 422 });
    expect(error.message).toContain('ppt/slides/slide9.xml');

    const doctype = await makeXlsx([{ name: 'One', rows: [['x']] }], {
      sheetXml: {
        One: '<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY a "aaaa">]><worksheet><sheetData/></worksheet>',
      },
    });
    const corrupt = await rejection(loadDocument(doctype, 'doctype.xlsx'));
    expect(corrupt).toBeInstanceOf(CorruptDocumentError);
    expect(corrupt).toMatchObject({ fileType: 'xlsx' });
    expect(corrupt.message).toContain('<!DOCTYPE>');
  });

  it('refuses a sheet of a million cells at MAX_SHEET_CELLS (413), reading no further, for classify and parse', async () => {
    const book = await makeXlsx([{ name: 'Big', rows: [] }], {
      sheetXml: { Big: numericSheetXml(1_000_000, 50) },
    });
    let error: Error | undefined;
    const used = await cpuMilliseconds(async () => {
      error = await rejection(loadDocument(book, 'big.xlsx'));
    });
    expect(error).toBeInstanceOf(DocumentLimitError);
    expect(error).toMatchObject({ limit: 'MAX_SHEET_CELLS', status: 413 });
    expect(error?.message).toContain('more than 200000 cells');
    expect(used).toBeLessThan(5_000);
    await expect(loadLayoutDocuments([{ bytes: book, name: 'big.xlsx' }])).rejects.toBeInstanceOf(
      DocumentLimitError,
    );
    setDocumentLimits({ ...DEFAULT_DOCUMENT_LIMITS, maxSheetCells: 2_000_000 });
    await expect(loadDocument(book, 'big.xlsx')).resolves.toMatchObject({ totalPages: 1 });
  });

  it('refuses a sheet whose few cells span a table past the limit, without building it', async () => {
    // 2,000 cells on a diagonal: a table of 2,000 x 2,000 once empty rows and columns go.
    const diagonal = Array.from({ length: 2_000 }, (_, i) => {
      const column = i.toString(26).replace(/./g, (d) => String.fromCharCode(65 + parseInt(d, 26)));
      return `<row r="${i + 1}"><c r="${column}${i + 1}"><v>1</v></c></row>`;
    }).join('');
    const book = await makeXlsx([{ name: 'Sparse', rows: [] }], {
      sheetXml: { Sparse: `<worksheet><sheetData>${diagonal}</sheetData></worksheet>` },
    });
    const error = await rejection(loadDocument(book, 'sparse.xlsx'));
    expect(error).toMatchObject({ limit: 'MAX_SHEET_CELLS' });
    expect(error.message).toContain('up to 2000 rows by 2000 columns');
  });

  it('refuses a shared string repeated past MAX_OFFICE_TEXT_CHARS before writing it out', async () => {
    // One 100,000-character string in 1,000 cells: 100 million characters from a small zip.
    const long = 'x'.repeat(100_000);
    const cells = '<c t="s"><v>0</v></c>'.repeat(1_000);
    const book = await makeXlsx([{ name: 'Echo', rows: [[long]] }], {
      sheetXml: { Echo: `<worksheet><sheetData><row r="1">${cells}</row></sheetData></worksheet>` },
    });
    expect(book.length).toBeLessThan(100_000);
    const rss = process.memoryUsage.rss();
    const used = await cpuMilliseconds(async () => {
      const error = await rejection(loadDocument(book, 'echo.xlsx'));
      expect(error).toMatchObject({ limit: 'MAX_OFFICE_TEXT_CHARS', status: 413 });
    });
    expect(used).toBeLessThan(2_000);
    expect(process.memoryUsage.rss() - rss).toBeLessThan(100 * 1024 * 1024);
  });

  it('refuses a slide listed 2,000 times past MAX_OFFICE_TEXT_CHARS in bounded time; within it, each listing is a page', async () => {
    const boxes = Array.from({ length: 100 }, (_, i) => ({
      text: ['y'.repeat(100)],
      at: [1, i / 20] as [number, number],
    }));
    const deck = await makePptx(
      Array.from({ length: 2_000 }, () => ({ shapes: boxes })),
      { partOrder: Array.from({ length: 2_000 }, () => 1) },
    );
    const used = await cpuMilliseconds(async () => {
      const error = await rejection(loadDocument(deck, 'echo.pptx'));
      expect(error).toMatchObject({ limit: 'MAX_OFFICE_TEXT_CHARS', status: 413 });
    });
    expect(used).toBeLessThan(3_000);
    setDocumentLimits({ ...DEFAULT_DOCUMENT_LIMITS, maxOfficeTextChars: 100_000_000 });
    await expect(loadDocument(deck, 'echo.pptx')).resolves.toMatchObject({ totalPages: 2_000 });
  });

  it('refuses a CSV file of a million cells at MAX_SHEET_CELLS', async () => {
    const csv = Buffer.from('1,2,3,4,5,6,7,8,9,10\n'.repeat(100_000));
    const used = await cpuMilliseconds(async () => {
      const error = await rejection(loadDocument(csv, 'big.csv'));
      expect(error).toMatchObject({ limit: 'MAX_SHEET_CELLS', status: 413 });
    });
    expect(used).toBeLessThan(5_000);
  });

  it('refuses a deck or workbook whose relationships point nowhere as corrupt, naming what is missing', async () => {
    const deck = await JSZip.loadAsync(await makePptx([{ shapes: [{ title: 'One' }] }]));
    deck.file('ppt/_rels/presentation.xml.rels', 'not xml at all');
    const pptx = await rejection(
      loadDocument(await deck.generateAsync({ type: 'nodebuffer' }), 'broken.pptx'),
    );
    expect(pptx).toBeInstanceOf(CorruptDocumentError);
    expect(pptx.message).toContain('slide 1');

    const book = await JSZip.loadAsync(await makeXlsx([{ name: 'Data', rows: [['x']] }]));
    book.file(
      'xl/_rels/workbook.xml.rels',
      '<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="../../../../etc/passwd"/></Relationships>',
    );
    const xlsx = await rejection(
      loadDocument(await book.generateAsync({ type: 'nodebuffer' }), 'broken.xlsx'),
    );
    expect(xlsx).toBeInstanceOf(CorruptDocumentError);
    expect(xlsx.message).toContain('sheet "Data"');
  });

  it('refuses a deck cut short, named as a deck, as corrupt', async () => {
    const deck = await makePptx([{ shapes: [{ title: 'One' }] }]);
    const error = await rejection(loadDocument(deck.subarray(0, deck.length / 2), 'cut.pptx'));
    expect(error).toBeInstanceOf(CorruptDocumentError);
    expect(error).toMatchObject({ fileType: 'pptx' });
  });
});
