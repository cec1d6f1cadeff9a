import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FileServer, startFileServer } from '../../support/file-server.js';
import { makePptx, makeXlsx, numericSheetXml } from '../../support/office-documents.js';
import { Json, client, keyOf } from '../../support/processing-client.js';
import { startTestApp, TestApp } from '../../support/test-app.js';

const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The layout version that forms tables (the default reads a table's rows as lines, as in a DOCX). */
const TABLES = { alpha: { layout_model: 'layout-v4' } };

/** Every block of a parse result as [type, content, page]. */
const blocksOf = (result: Json): [string, string, number][] =>
  (result.chunks as Json[]).flatMap((chunk) =>
    (chunk.blocks as Json[]).map((block): [string, string, number] => [
      block.type,
      block.content,
      block.bbox.page,
    ]),
  );

/** Slide decks, workbooks and CSV files through the HTTP API, as a user sends them. */
describe('PPTX, XLSX and CSV inputs', () => {
  let t: TestApp;
  let files: FileServer;
  let api: ReturnType<typeof client>;
  let deckUrl: string;
  let bookUrl: string;
  beforeAll(async () => {
    files = await startFileServer();
    t = await startTestApp({ FETCH_ALLOW_HOSTS: '127.0.0.1' });
    api = client(t.baseUrl, await keyOf(t, 'org-office'));
    const deck = await makePptx(
      [
        {
          shapes: [
            { title: 'Quarterly business review', centred: true },
            { text: ['Sales team, March'], at: [1, 3] },
          ],
        },
        {
          shapes: [
            { title: 'Results' },
            { body: ['Revenue grew in every region', { text: 'EMEA ahead of plan', level: 1 }] },
            {
              table: [
                ['Region', 'Revenue'],
                ['EMEA', '4.2 M'],
                ['Americas', '3.9 M'],
              ],
              at: [1, 4],
            },
          ],
          notes: 'Mention the hiring freeze',
        },
        {
          shapes: [
            { title: 'Next steps' },
            { body: ['Open two offices', 'Hire account managers'] },
          ],
        },
      ],
      { partOrder: [2, 3, 1] },
    );
    deckUrl = files.put('/review.pptx', deck, PPTX);
    const book = await makeXlsx([
      {
        name: 'Invoices',
        rows: [
          ['Invoice number', 'Bill to', 'Issued', 'Amount due'],
          ['INV-2041', 'ACME Corp', { date: 45366 }, 1250],
          ['INV-2042', 'Globex', { date: 45367 }, 980.5],
        ],
      },
      {
        name: 'Rates',
        rows: [
          ['Currency', 'Rate'],
          ['EUR', 1],
        ],
      },
    ]);
    bookUrl = files.put('/register.xlsx', book, XLSX);
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  it('parses a deck: a page per slide in presentation order, titles, list items and tables as blocks', async () => {
    const res = await api.post('/parse', { input: deckUrl, settings: TABLES });
    expect(res.status).toBe(200);
    expect(res.body.usage.num_pages).toBe(3);
    const blocks = blocksOf(res.body.result);
    expect(blocks.filter(([type]) => type === 'Title')).toEqual([
      ['Title', 'Quarterly business review', 1],
      ['Title', 'Results', 2],
      ['Title', 'Next steps', 3],
    ]);
    expect(blocks).toContainEqual(['List Item', '* Revenue grew in every region', 2]);
    expect(blocks).toContainEqual([
      'Table',
      '| Region | Revenue |\n| --- | --- |\n| EMEA | 4.2 M |\n| Americas | 3.9 M |',
      2,
    ]);
    expect(JSON.stringify(res.body.result)).not.toContain('hiring freeze');
  });

  it('classifies a deck and a workbook by their content, billing slides and sheets as pages', async () => {
    const schema = [
      {
        category: 'presentation',
        criteria: ['slides with a title and bullet points', 'pages in landscape orientation'],
      },
      { category: 'invoice list', criteria: ['invoice numbers', 'amounts due', 'bill to'] },
    ];
    const deck = await api.post('/classify', { input: deckUrl, classification_schema: schema });
    expect(deck.status).toBe(200);
    expect(deck.body.result).toEqual({ category: 'presentation' });
    expect(deck.body.usage).toMatchObject({ num_pages: 3 });
    const book = await api.post('/classify', { input: bookUrl, classification_schema: schema });
    expect(book.status).toBe(200);
    expect(book.body.result).toEqual({ category: 'invoice list' });
    expect(book.body.usage).toMatchObject({ num_pages: 2 });
  });

  it('parses a workbook: each sheet a page, its name a title over its table, dates as dates', async () => {
    const res = await api.post('/parse', { input: bookUrl, settings: TABLES });
    expect(res.status).toBe(200);
    expect(blocksOf(res.body.result)).toEqual([
      ['Title', 'Invoices', 1],
      [
        'Table',
        '| Invoice number | Bill to | Issued | Amount due |\n| --- | --- | --- | --- |\n' +
          '| INV-2041 | ACME Corp | 2024-03-15 | 1250 |\n| INV-2042 | Globex | 2024-03-16 | 980.5 |',
        1,
      ],
      ['Title', 'Rates', 2],
      ['Table', '| Currency | Rate |\n| --- | --- |\n| EUR | 1 |', 2],
    ]);
  });

  it('reads a URL served as text/csv without an extension as one table, its delimiter detected', async () => {
    const url = files.put(
      '/export',
      'Item;Price\nTea;3,50\nCoffee;2,80\n',
      'text/csv; charset=utf-8',
    );
    const res = await api.post('/parse', { input: url, settings: TABLES });
    expect(res.status).toBe(200);
    expect(blocksOf(res.body.result)).toEqual([
      ['Table', '| Item | Price |\n| --- | --- |\n| Tea | 3,50 |\n| Coffee | 2,80 |', 1],
    ]);
  });

  it('splits a deck by its slides', async () => {
    const res = await api.post('/split', {
      input: deckUrl,
      split_description: [
        { name: 'results', description: 'Revenue results by region' },
        { name: 'plans', description: 'Next steps: offices and hiring' },
      ],
    });
    expect(res.status).toBe(200);
    const pages = Object.fromEntries(
      (res.body.result.splits as Json[]).map((split) => [split.name, split.pages]),
    );
    expect(pages.results).toContain(2);
    expect(pages.plans).toContain(3);
  });

  it('refuses a workbook of a million cells with a 413 naming MAX_SHEET_CELLS', async () => {
    const book = await makeXlsx([{ name: 'Big', rows: [] }], {
      sheetXml: { Big: numericSheetXml(1_000_000, 50) },
    });
    const big = files.put('/big.xlsx', book, XLSX);
    const res = await api.post('/parse', { input: big });
    expect(res.status).toBe(413);
    expect(JSON.stringify(res.body)).toContain('MAX_SHEET_CELLS');
  });

  it('names the slide decks, spreadsheets and CSV among the supported types when refusing others', async () => {
    const url = files.put(
      '/archive.gz',
      Buffer.from('1f8b0800000000000003030000000000000000', 'hex'),
    );
    const res = await api.post('/parse', { input: url });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('PPTX, XLSX, CSV');
  });
});
