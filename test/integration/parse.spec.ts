import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { terminateOcr } from '../../src/documents/readers/ocr.engine.js';
import type { ParseBlock } from '../../src/documents/parse/layout.engines.js';
import { loadLayoutDocument } from '../../src/documents/parse/layout.loader.js';
import type { LayoutDocument } from '../../src/documents/parse/layout.types.js';
import { parseDocument } from '../../src/documents/parse/parse.operation.js';
import { makeDocx, makeScannedPdf } from '../support/documents.js';
import { makeLayoutPdf, type DrawnLine } from '../support/layout-documents.js';

const report = [
  {
    header: 'ACME Corp Quarterly Report',
    footer: 'Page 1',
    elements: [
      { title: 'Quarterly Report' },
      {
        paragraph:
          'This report summarises the results of the third quarter for all regions. Revenue grew ' +
          'in every region while operating costs stayed flat. The board approved the outlook ' +
          'for the coming quarter.',
      },
      { heading: 'Highlights' },
      { list: ['Revenue up 12 percent', 'Two new offices opened', 'Costs flat'] },
      { heading: 'Revenue by region' },
      {
        table: [
          ['Region', 'Q2', 'Q3'],
          ['North', '1,200', '1,350'],
          ['South', '900', '1,010'],
          ['West', '700', '805'],
        ],
      },
    ],
  },
  {
    header: 'ACME Corp Quarterly Report',
    footer: 'Page 2',
    elements: [
      { heading: 'Outlook' },
      { paragraph: 'We expect steady growth next quarter, driven by the new offices.' },
    ],
  },
];

let doc: LayoutDocument;
let drawn: DrawnLine[];

beforeAll(async () => {
  const pdf = await makeLayoutPdf(report);
  drawn = pdf.lines;
  doc = await loadLayoutDocument(pdf.bytes);
});

afterAll(async () => {
  await terminateOcr();
});

const blocksOf = (engine: 'line-blocks-basic' | 'line-blocks' | 'paragraph-blocks') =>
  parseDocument(doc, { engine }).chunks.flatMap((c) => c.blocks);
const summary = (blocks: ParseBlock[]) => blocks.map((b) => [b.bbox.page, b.type, b.content]);

describe('parse of a text-layer PDF', () => {
  it('reads positioned lines from the text layer of every page', () => {
    expect(doc.totalPages).toBe(2);
    expect(doc.pages.map((p) => p.source)).toEqual(['text-layer', 'text-layer']);
  });

  it('layout-v3 (line-blocks): one typed block per line, in reading order', () => {
    expect(summary(blocksOf('line-blocks'))).toEqual([
      [1, 'Header', 'ACME Corp Quarterly Report'],
      [1, 'Title', 'Quarterly Report'],
      [1, 'Text', expect.stringMatching(/^This report summarises/)],
      [1, 'Text', expect.any(String)],
      [1, 'Text', expect.stringMatching(/quarter\.$/)],
      [1, 'Section Header', 'Highlights'],
      [1, 'List Item', '• Revenue up 12 percent'],
      [1, 'List Item', '• Two new offices opened'],
      [1, 'List Item', '• Costs flat'],
      [1, 'Section Header', 'Revenue by region'],
      [1, 'Text', 'Region Q2 Q3'],
      [1, 'Text', 'North 1,200 1,350'],
      [1, 'Text', 'South 900 1,010'],
      [1, 'Text', 'West 700 805'],
      [1, 'Page Number', 'Page 1'],
      [2, 'Header', 'ACME Corp Quarterly Report'],
      [2, 'Section Header', 'Outlook'],
      [2, 'Text', 'We expect steady growth next quarter, driven by the new offices.'],
      [2, 'Page Number', 'Page 2'],
    ]);
  });

  it('layout-v4 (paragraph-blocks): paragraphs merged and the table detected', () => {
    const blocks = blocksOf('paragraph-blocks');
    expect(summary(blocks)).toEqual([
      [1, 'Header', 'ACME Corp Quarterly Report'],
      [1, 'Title', 'Quarterly Report'],
      [1, 'Text', expect.stringMatching(/^This report summarises .* coming quarter\.$/)],
      [1, 'Section Header', 'Highlights'],
      [1, 'List Item', '• Revenue up 12 percent'],
      [1, 'List Item', '• Two new offices opened'],
      [1, 'List Item', '• Costs flat'],
      [1, 'Section Header', 'Revenue by region'],
      [1, 'Table', expect.stringContaining('| Region | Q2 | Q3 |')],
      [1, 'Page Number', 'Page 1'],
      [2, 'Header', 'ACME Corp Quarterly Report'],
      [2, 'Section Header', 'Outlook'],
      [2, 'Text', 'We expect steady growth next quarter, driven by the new offices.'],
      [2, 'Page Number', 'Page 2'],
    ]);
    const table = blocks.find((b) => b.type === 'Table');
    expect(table?.extra?.rows).toEqual([
      ['Region', 'Q2', 'Q3'],
      ['North', '1,200', '1,350'],
      ['South', '900', '1,010'],
      ['West', '700', '805'],
    ]);
    expect(table?.content).toBe(
      [
        '| Region | Q2 | Q3 |',
        '| --- | --- | --- |',
        '| North | 1,200 | 1,350 |',
        '| South | 900 | 1,010 |',
        '| West | 700 | 805 |',
      ].join('\n'),
    );
  });

  it('layout-v2 (line-blocks-basic): only titles and text', () => {
    const types = new Set(blocksOf('line-blocks-basic').map((b) => b.type));
    expect(types).toEqual(new Set(['Title', 'Text']));
  });

  it('gives bounding boxes where the lines were drawn (page fractions, top-left origin)', () => {
    let checked = 0;
    for (const block of blocksOf('line-blocks')) {
      const line = drawn.find((l) => l.page === block.bbox.page && block.content === l.text);
      if (!line) continue; // table rows are drawn cell by cell
      expect(block.bbox.left).toBeCloseTo(line.left, 2);
      expect(block.bbox.top).toBeCloseTo(line.top, 2);
      expect(block.bbox.width).toBeCloseTo(line.width, 2);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(14);
    const table = blocksOf('paragraph-blocks').find((b) => b.type === 'Table');
    const region = drawn.find((l) => l.text === 'Region');
    const lastCell = drawn.find((l) => l.text === '805');
    expect(table?.bbox.left).toBeCloseTo(region?.left ?? -1, 2);
    expect(table?.bbox.top).toBeCloseTo(region?.top ?? -1, 2);
    const bottom = (lastCell?.top ?? 0) + (lastCell?.height ?? 0);
    expect((table?.bbox.top ?? 0) + (table?.bbox.height ?? 0)).toBeCloseTo(bottom, 2);
  });

  it('chunks by page and by section, and filters block types from content only', () => {
    const byPage = parseDocument(doc, { engine: 'paragraph-blocks', chunkMode: 'page' });
    expect(byPage.chunks.map((c) => new Set(c.blocks.map((b) => b.bbox.page)))).toEqual([
      new Set([1]),
      new Set([2]),
    ]);
    const bySection = parseDocument(doc, {
      engine: 'paragraph-blocks',
      chunkMode: 'section',
      filterBlocks: ['Header', 'Footer', 'Page Number'],
    });
    expect(bySection.chunks.map((c) => c.content.split('\n')[0])).toEqual([
      '',
      '# Quarterly Report',
      '## Highlights',
      '## Revenue by region',
      '## Outlook',
    ]);
    expect(bySection.chunks.every((c) => !c.content.includes('ACME Corp'))).toBe(true);
    expect(bySection.chunks[0].blocks[0].type).toBe('Header');
  });

  it('applies page_range to PDFs', async () => {
    const pdf = await makeLayoutPdf(report);
    const second = await loadLayoutDocument(pdf.bytes, undefined, { pageRange: { start: 2 } });
    expect(second.pages.map((p) => p.pageNumber)).toEqual([2]);
    const blocks = parseDocument(second, { engine: 'line-blocks' }).chunks[0].blocks;
    expect(blocks.every((b) => b.bbox.page === 2)).toBe(true);
  });
});

describe('parse of documents without a text layer or page geometry', () => {
  it('forms blocks from OCR line boxes of a scanned PDF', async () => {
    const scanned = await makeScannedPdf(['Delivery Note 5521\nShipped to Berlin warehouse']);
    const ocrDoc = await loadLayoutDocument(scanned);
    expect(ocrDoc.pages[0].source).toBe('ocr');
    const blocks = parseDocument(ocrDoc, { engine: 'line-blocks', returnOcrData: true });
    const all = blocks.chunks.flatMap((c) => c.blocks);
    expect(all.map((b) => b.content.toLowerCase())).toEqual(
      expect.arrayContaining([
        expect.stringContaining('delivery note 5521'),
        expect.stringContaining('berlin'),
      ]),
    );
    const note = all.find((b) => /delivery/i.test(b.content));
    // makeScannedPdf draws text from 80px of a 1275px-wide image scaled to the page width.
    expect(note?.bbox.left).toBeGreaterThan(0.03);
    expect(note?.bbox.left).toBeLessThan(0.07);
    expect(note?.confidence).toBe('low');
    expect(blocks.ocr?.words.length).toBeGreaterThan(4);
  }, 120_000);

  it('types the headings of HTML and DOCX by their level, as in Markdown', async () => {
    const html = Buffer.from(
      '<h1>Service Agreement</h1><p>The parties agree as follows.</p>' +
        '<h2>Payment</h2><p>Fees are due monthly.</p>',
    );
    const docx = await makeDocx([
      { heading: 1, text: 'Service Agreement' },
      'The parties agree as follows.',
      { heading: 2, text: 'Payment' },
      'Fees are due monthly.',
    ]);
    const markdown = Buffer.from(
      '# Service Agreement\n\nThe parties agree as follows.\n\n## Payment\n\nFees are due monthly.',
    );
    for (const [bytes, name] of [
      [html, 'agreement.html'],
      [docx, 'agreement.docx'],
      [markdown, 'agreement.md'],
    ] as const) {
      const blocks = parseDocument(await loadLayoutDocument(bytes, name), {
        engine: 'line-blocks',
      }).chunks[0].blocks;
      expect([name, summary(blocks)]).toEqual([
        name,
        [
          [1, 'Title', 'Service Agreement'],
          [1, 'Text', 'The parties agree as follows.'],
          [1, 'Section Header', 'Payment'],
          [1, 'Text', 'Fees are due monthly.'],
        ],
      ]);
    }
  });

  it('reads Markdown pipe tables, and HTML and DOCX tables, as Table blocks', async () => {
    const markdown = Buffer.from(
      [
        'Prices',
        '',
        '| Item | Price | Note |',
        '|:-----|------:|:----:|',
        '| Apple | 1.20 | red \\| green |',
        '|  |  |  |',
        'Pear | 2.00',
        '| Plum | 3.10 | ripe | extra |',
        '',
        'After the table.',
      ].join('\n'),
    );
    const html = Buffer.from(
      '<p>Prices</p><table><tr><th>Item</th><th>Price</th><th>Note</th></tr>' +
        '<tr><td>Apple</td><td>1.20</td><td>red | green</td></tr>' +
        '<tr><td></td><td></td><td></td></tr><tr><td>Pear</td><td>2.00</td></tr>' +
        '<tr><td>Plum</td><td>3.10</td><td>ripe</td></tr></table><p>After the table.</p>',
    );
    const docx = await makeDocx([
      'Prices',
      {
        table: [
          ['Item', 'Price', 'Note'],
          ['Apple', '1.20', 'red | green'],
          ['Pear', '2.00', ''],
          ['Plum', '3.10', 'ripe'],
        ],
      },
      'After the table.',
    ]);
    const rows = [
      ['Item', 'Price', 'Note'],
      ['Apple', '1.20', 'red | green'],
      ['Pear', '2.00', ''],
      ['Plum', '3.10', 'ripe'],
    ];
    for (const [bytes, name] of [
      [markdown, 'prices.md'],
      [html, 'prices.html'],
      [docx, 'prices.docx'],
    ] as const) {
      const layout = await loadLayoutDocument(bytes, name);
      const blocks = parseDocument(layout, { engine: 'paragraph-blocks' }).chunks[0].blocks;
      expect([name, blocks.map((b) => [b.type, b.extra?.rows ?? b.content])]).toEqual([
        name,
        [
          ['Text', 'Prices'],
          ['Table', rows],
          ['Text', 'After the table.'],
        ],
      ]);
      expect(blocks[1].content.split('\n').slice(0, 3)).toEqual([
        '| Item | Price | Note |',
        '| --- | --- | --- |',
        '| Apple | 1.20 | red \\| green |',
      ]);
      const lines = parseDocument(layout, { engine: 'line-blocks' }).chunks[0].blocks;
      expect(lines.filter((b) => b.content.trim() === '')).toEqual([]);
      // Extract and split read a row's words, without pipes or the delimiter row.
      expect(layout.pages[0].lines.map((line) => line.text).slice(1, 3)).toEqual([
        'Item Price Note',
        'Apple 1.20 red | green',
      ]);
    }
  });

  it('reads a table or a heading inside an HTML cell as the words of that cell', async () => {
    const html = Buffer.from(
      '<table><tr><th>Item</th><th><h3>Parts</h3></th></tr>' +
        '<tr><td>Kit</td><td><table><tr><td>bolt</td><td>nut</td></tr>' +
        '<tr><td>washer</td></tr></table></td></tr></table>',
    );
    const layout = await loadLayoutDocument(html, 'kit.html');
    const blocks = parseDocument(layout, { engine: 'paragraph-blocks' }).chunks[0].blocks;
    expect(blocks.map((b) => [b.type, b.extra?.rows])).toEqual([
      [
        'Table',
        [
          ['Item', 'Parts'],
          ['Kit', 'bolt nut washer'],
        ],
      ],
    ]);
  });

  it('lays a table out in no more cells than its text has characters, however it pads or spans', async () => {
    const wide = (cells: number) => `|${Array.from({ length: cells }, () => 'h').join('|')}|`;
    const markdown = Buffer.from(
      [wide(1000), `|${Array.from({ length: 1000 }, () => '-').join('|')}|`]
        .concat(Array.from({ length: 20_000 }, () => '|x'))
        .join('\n'),
    );
    const html = (rows: string) => Buffer.from(`<table>${rows}</table>`);
    const headerOverOneCellRows = html(
      `<tr>${'<td>h</td>'.repeat(1000)}</tr>${'<tr><td>x</td></tr>'.repeat(5000)}`,
    );
    const spans = html('<tr><td colspan="1000">x</td></tr>'.repeat(5000));
    for (const [bytes, name] of [
      [markdown, 'bomb.md'],
      [headerOverOneCellRows, 'header.html'],
      [spans, 'spans.html'],
    ] as const) {
      const lines = (await loadLayoutDocument(bytes, name)).pages.flatMap((page) => page.lines);
      const cells = lines.reduce((sum, line) => sum + line.segments.length, 0);
      expect([name, cells <= bytes.length]).toEqual([name, true]);
      // Every written x is still read.
      expect([name, lines.filter((line) => /x/.test(line.text)).length]).toEqual([
        name,
        name === 'bomb.md' ? 20_000 : 5000,
      ]);
    }
  });

  it('gives DOCX pages estimated positions in paragraph order', async () => {
    const docx = await makeDocx(['Service Agreement', 'The parties agree as follows.']);
    const docxDoc = await loadLayoutDocument(docx);
    expect(docxDoc.pages[0].synthetic).toBe(true);
    const blocks = parseDocument(docxDoc, { engine: 'line-blocks' }).chunks[0].blocks;
    expect(blocks.map((b) => b.content)).toEqual([
      'Service Agreement',
      'The parties agree as follows.',
    ]);
    expect(blocks[0].bbox.top).toBeLessThan(blocks[1].bbox.top);
  });
});
