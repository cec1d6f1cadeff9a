import { beforeAll, describe, expect, it } from '@jest/globals';
import { loadLayoutDocument } from '../../src/documents/parse/layout.loader.js';
import type { LayoutDocument } from '../../src/documents/parse/layout.types.js';
import {
  deepSplitDocument,
  splitDocument,
  type SplitSection,
} from '../../src/documents/split/split.operation.js';
import { makePdf } from '../support/documents.js';
import { makeLayoutPdf } from '../support/layout-documents.js';

const sections: SplitSection[] = [
  { name: 'Invoice', description: 'Invoice with invoice number, bill to and total due' },
  { name: 'Bank statement', description: 'Bank account statement with balances and transactions' },
  { name: 'Contract', description: 'Agreement between parties with terms and signatures' },
];

let doc: LayoutDocument;

beforeAll(async () => {
  const pdf = await makeLayoutPdf([
    {
      elements: [
        { title: 'Invoice' },
        {
          keyValues: [
            ['Invoice Number', 'INV-1'],
            ['Bill To', 'Globex'],
            ['Total Due', '$300.00'],
          ],
        },
      ],
    },
    // Invoice continued: line items only, none of the section's words.
    {
      elements: [
        {
          table: [
            ['Widget A', '10', '125.00'],
            ['Widget B', '4', '120.00'],
          ],
        },
        { paragraph: 'Thank you for your business.' },
      ],
    },
    {
      elements: [
        { title: 'Bank Statement' },
        {
          keyValues: [
            ['Account', '12345678'],
            ['Opening balance', '1,000.00'],
          ],
        },
        { paragraph: 'Transactions for March, closing balance shown below.' },
      ],
    },
    {
      elements: [
        {
          table: [
            ['2026-03-02', 'Coffee shop', '-4.50'],
            ['2026-03-03', 'Rent', '-900.00'],
          ],
        },
      ],
    },
    {
      elements: [
        { title: 'Service Agreement' },
        {
          paragraph:
            'This agreement is made between the parties named below on the following terms.',
        },
      ],
    },
    {
      elements: [
        { heading: 'Signatures' },
        { paragraph: 'Signed by both parties to the agreement.' },
      ],
    },
  ]);
  doc = await loadLayoutDocument(pdf.bytes);
});

describe('split', () => {
  it('gives each section its known page range; pages without evidence continue the last', () => {
    const { splits, section_mapping } = splitDocument(doc, sections);
    expect(splits.map((s) => [s.name, s.pages])).toEqual([
      ['Invoice', [1, 2]],
      ['Bank statement', [3, 4]],
      ['Contract', [5, 6]],
    ]);
    expect(section_mapping).toEqual({
      Invoice: [1, 2],
      'Bank statement': [3, 4],
      Contract: [5, 6],
    });
    // Continuation pages lower the confidence of their section.
    expect(splits.map((s) => s.conf)).toEqual(['low', 'low', 'high']);
  });

  it('partitions a section by the value of its partition key', async () => {
    const pdf = await makePdf([
      'Invoice\nInvoice Number: INV-1\nTotal Due: 100.00',
      'Line items continued',
      'Invoice\nInvoice Number: INV-2\nTotal Due: 250.00',
    ]);
    const invoices = await loadLayoutDocument(pdf);
    const { splits } = splitDocument(invoices, [
      { name: 'Invoice', description: 'Invoice with total due', partition_key: 'invoice number' },
    ]);
    expect(splits[0].pages).toEqual([1, 2, 3]);
    expect(splits[0].partitions?.map((p) => [p.name, p.pages])).toEqual([
      ['INV-1', [1, 2]],
      ['INV-2', [3]],
    ]);
  });
});

describe('deep split', () => {
  it('deep-split-v2 (page-evidence-continuity): known ranges with per-page evidence', () => {
    const { splits } = deepSplitDocument(doc, sections, 'page-evidence-continuity');
    expect(splits.map((s) => [s.name, s.pages.map((p) => p.page_number)])).toEqual([
      ['Invoice', [1, 2]],
      ['Bank statement', [3, 4]],
      ['Contract', [5, 6]],
    ]);
    expect(splits[0].pages[0]).toEqual({ page_number: 1, evidence: 'Invoice', confidence: 'high' });
    expect(splits[0].pages[1]).toMatchObject({
      page_number: 2,
      confidence: 'low',
      evidence: expect.stringContaining('continues the section of page 1'),
    });
    expect(splits[1].pages[0]).toMatchObject({ evidence: 'Bank Statement', confidence: 'high' });
  });

  it('deep-split-v2 gives a page that fits no section low confidence, as the default split does', async () => {
    const invoice = await loadLayoutDocument(
      await makePdf([
        'INVOICE\nInvoice number: INV-2026-0042\nInvoice date: 14 March 2026\n' +
          'Bill to: Globex Corporation, 12 Harbour Road, Springfield\n' +
          'Description Qty Unit price Amount\nConsulting services, March 2026 10 120.00 1,200.00\n' +
          'Travel expenses 1 50.00 50.00\nSubtotal 1,250.00\nVAT 20% 250.00\nTotal due 1,500.00 EUR\n' +
          'Payment within 30 days to IBAN DE89 3704 0044 0532 0130 00. Thank you for your business.',
      ]),
      'invoice.pdf',
    );
    const poem: SplitSection[] = [{ name: 'poem', description: 'A poem written in verse' }];
    expect(splitDocument(invoice, poem).splits[0]).toMatchObject({ pages: [1], conf: 'low' });
    const { splits } = deepSplitDocument(invoice, poem, 'page-evidence-continuity');
    expect(splits[0].pages).toEqual([
      expect.objectContaining({ page_number: 1, confidence: 'low' }),
    ]);
  });

  it('deep-split-v1 (page-evidence) judges each page alone and leaves out pages without evidence', () => {
    const { splits } = deepSplitDocument(doc, sections, 'page-evidence');
    expect(splits.map((s) => [s.name, s.pages.map((p) => p.page_number)])).toEqual([
      ['Invoice', [1]],
      ['Bank statement', [3]],
      ['Contract', [5, 6]],
    ]);
  });
});
