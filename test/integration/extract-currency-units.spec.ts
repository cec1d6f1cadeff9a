import { afterAll, describe, expect, it } from '@jest/globals';
import type { JsonSchema } from '../../src/documents/extract/extract-schema.js';
import { extractDocument } from '../../src/documents/extract/extract.operation.js';
import { loadLayoutDocument } from '../../src/documents/parse/layout.loader.js';
import { terminateOcr } from '../../src/documents/readers/ocr.engine.js';
import { makeLayoutPdf } from '../support/layout-documents.js';

afterAll(async () => {
  await terminateOcr();
});

const schema: JsonSchema = {
  type: 'object',
  properties: {
    company: { type: 'string', description: 'The name of the shop that issued the receipt' },
    total: { type: 'number', description: 'The total amount paid' },
  },
};

/** A receipt whose totals are set in two columns, label and amount. */
async function totalOf(rows: string[][]): Promise<unknown[]> {
  const pdf = await makeLayoutPdf([
    { elements: [{ title: 'KEDAI BUKU MAJU SDN BHD' }, { table: rows }] },
  ]);
  const document = await loadLayoutDocument(pdf.bytes, 'receipt.pdf');
  return [undefined, 'fuzzy-synonyms-described' as const].map(
    (deepEngine) =>
      extractDocument(document, schema, { engine: 'label-typed', deepEngine, citations: false })
        .result.total,
  );
}

describe('extract reads the currency printed with a label as the unit of its amount', () => {
  it('reads "TOTAL RM" and "TOTAL (RM)" as the total, ahead of other totals', async () => {
    expect(
      await totalOf([
        ['2PC @ 13.69', '27.38'],
        ['STAT-GREAT SAVING', '-6.40'],
        ['TOTAL RM', '21.00'],
        ['CASH', '50.00'],
        ['CHANGE', '29.00'],
        ['TOTAL SAVINGS', '-6.40'],
      ]),
    ).toEqual([21, 21]);
    expect(
      await totalOf([
        ['TOTAL (RM)', '332.30'],
        ['TOTAL GST (RM)', '18.81'],
        ['CASH', '400.00'],
        ['TOTAL ITEMS', '313.50', '18.81'],
      ]),
    ).toEqual([332.3, 332.3]);
  });

  it('reads a currency alone after a colon as the unit of the amount in the next column', async () => {
    expect(
      await totalOf([
        ['ITEM COUNT', '7'],
        ['SUBTOTAL:', '28.60'],
        ['TL:RM', '28.60'],
        ['6% GST', '0.07'],
        ['CASH', '100.00'],
        ['CHANGE', '71.40'],
      ]),
    ).toEqual([28.6, 28.6]);
  });
});
