import { afterAll, describe, expect, it } from '@jest/globals';
import type { JsonSchema } from '../../src/documents/extract/extract-schema.js';
import { extractDocument } from '../../src/documents/extract/extract.operation.js';
import { loadLayoutDocument } from '../../src/documents/parse/layout.loader.js';
import { terminateOcr } from '../../src/documents/readers/ocr.engine.js';
import { makeLayoutPdf, type LayoutPageSpec } from '../support/layout-documents.js';

afterAll(async () => {
  await terminateOcr();
});

const schemaOf = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  properties,
});

const numbers = schemaOf({
  invoice_number: { type: 'string', description: 'The invoice number' },
  order_number: { type: 'string', description: 'The order number' },
  customer_number: { type: 'string' },
  tax_number: { type: 'string' },
});

async function extractBoth(bytes: Buffer, filename: string, schema: JsonSchema) {
  const document = await loadLayoutDocument(bytes, filename);
  return [undefined, 'fuzzy-synonyms-described' as const].map(
    (deepEngine) =>
      extractDocument(document, schema, { engine: 'label-typed', deepEngine, citations: false })
        .result,
  );
}

const pdfOf = async (pages: LayoutPageSpec[]) => (await makeLayoutPdf(pages)).bytes;

describe("extract: a label is the evidence of the field it names, not of the schema's others", () => {
  it('leaves the numbers the document does not print empty beside the one it prints', async () => {
    const beside = await pdfOf([
      {
        elements: [
          { title: 'ACME Supplies Ltd' },
          {
            keyValues: [
              ['Order number', '4711'],
              ['Date', '2024-03-05'],
              ['Total', '120.00 EUR'],
            ],
          },
        ],
      },
    ]);
    const inTable = await pdfOf([
      {
        elements: [
          { title: 'ACME Supplies Ltd' },
          {
            table: [
              ['Order number', 'Date', 'Total'],
              ['4711', '2024-03-05', '120.00'],
            ],
          },
        ],
      },
    ]);
    for (const pdf of [beside, inTable])
      for (const result of await extractBoth(pdf, 'order.pdf', numbers))
        expect(result).toEqual({
          invoice_number: null,
          order_number: '4711',
          customer_number: null,
          tax_number: null,
        });
  });

  it('gives each printed number to its own field, in any language the encoder reads', async () => {
    const german = Buffer.from('Muster GmbH\nBestellnummer: 4711\nKundennummer: 99\n');
    for (const result of await extractBoth(german, 'bestellung.txt', numbers))
      expect(result).toEqual({
        invoice_number: null,
        order_number: '4711',
        customer_number: '99',
        tax_number: null,
      });
  });

  it('gives a code in running text to the field whose words stand before it', async () => {
    const paragraph = async (text: string) =>
      pdfOf([{ elements: [{ title: 'Invoice' }, { paragraph: text }] }]);
    const orders = schemaOf({
      order_number: { type: 'string', description: 'The order number' },
      invoice_number: { type: 'string', description: 'The invoice number' },
    });
    for (const result of await extractBoth(
      await paragraph('Thank you for your order number 4711 placed on 5 March 2024.'),
      'order.pdf',
      orders,
    ))
      expect(result).toEqual({ order_number: '4711', invoice_number: null });
    for (const result of await extractBoth(
      await paragraph(
        'This is invoice number INV-2024-17 for your order number 4711 placed on 5 March 2024.',
      ),
      'invoice.pdf',
      orders,
    ))
      expect(result).toEqual({ order_number: '4711', invoice_number: 'INV-2024-17' });
  });

  it('withholds the label from a field asked as an integer, which may share values', async () => {
    const text = Buffer.from('ACME Supplies Ltd\nOrder number: 4711\nDate: 2024-03-05\n');
    const schema = schemaOf({
      invoice_number: { type: 'integer' },
      order_number: { type: 'integer' },
    });
    for (const result of await extractBoth(text, 'order.txt', schema))
      expect(result).toEqual({ invoice_number: null, order_number: 4711 });
  });

  it('keeps labels that only resemble another field, or name it less than their own', async () => {
    const cases: [string, Record<string, JsonSchema>, Record<string, unknown>][] = [
      [
        'Issue date: 2024-03-05\nDue date: 2024-04-05\n',
        {
          invoice_date: { type: 'string', format: 'date' },
          due_date: { type: 'string', format: 'date' },
        },
        { invoice_date: '2024-03-05', due_date: '2024-04-05' },
      ],
      [
        // "Date" is nearer "due date" than "invoice date" by the encoder: it names neither.
        'Date: 2024-03-05\nTotal: 5.00\n',
        {
          invoice_date: { type: 'string', format: 'date' },
          due_date: { type: 'string', format: 'date' },
        },
        { invoice_date: '2024-03-05', due_date: '2024-03-05' },
      ],
      [
        'Invoice number: INV-1\nGrand total: 100.00\n',
        { invoice_number: { type: 'string' }, invoice_total: { type: 'number' } },
        { invoice_number: 'INV-1', invoice_total: 100 },
      ],
      [
        // The encoder reads "Invoice amount" as the invoice number's name too; that field
        // takes its own label.
        'Invoice number: INV-1\nInvoice amount: 120.00 EUR\n',
        { invoice_number: { type: 'string' }, total_amount: { type: 'number' } },
        { invoice_number: 'INV-1', total_amount: 120 },
      ],
      [
        'Start date: 2024-01-01\nBill to name: Jane Roe\n',
        {
          effective_date: { type: 'string', format: 'date' },
          customer_name: { type: 'string' },
          customer_number: { type: 'string' },
        },
        { effective_date: '2024-01-01', customer_name: 'Jane Roe', customer_number: null },
      ],
    ];
    for (const [text, properties, expected] of cases)
      for (const result of await extractBoth(
        Buffer.from(`ACME Ltd\n${text}`),
        'invoice.txt',
        schemaOf(properties),
      ))
        expect(result).toEqual(expected);
  });
});
