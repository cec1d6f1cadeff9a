/**
 * A label that qualifies the same head word differently ("Invoice number" beside a field
 * `flight_number`, "Total amount" beside `tax_amount`) names another thing: the field stays
 * null rather than take its value. The documents are generated PDFs; the label similarity
 * is the installed encoder's.
 */
import { describe, expect, it } from '@jest/globals';
import type { JsonSchema } from '../../src/documents/extract/extract-schema.js';
import { extractDocument } from '../../src/documents/extract/extract.operation.js';
import { loadLayoutDocument } from '../../src/documents/parse/layout.loader.js';
import { makeLayoutPdf } from '../support/layout-documents.js';

const invoice: [string, string][] = [
  ['Invoice number', 'INV-2026-0042'],
  ['Invoice date', '2026-03-14'],
  ['Customer', 'Northwind Traders'],
  ['Total amount', '1,250.00 EUR'],
];

async function extract(lines: [string, string][], schema: JsonSchema, deep: boolean) {
  const pdf = await makeLayoutPdf([{ footer: 'Page 1', elements: [{ keyValues: lines }] }]);
  const document = await loadLayoutDocument(pdf.bytes, 'invoice.pdf');
  return extractDocument(document, schema, {
    engine: 'label-typed',
    deepEngine: deep ? 'fuzzy-synonyms-described' : undefined,
    citations: false,
  }).result;
}

describe('labels that qualify a field word differently', () => {
  it.each([false, true])(
    'answers null for fields whose qualifier no label shares (deep: %s)',
    async (deep) => {
      const schema: JsonSchema = {
        type: 'object',
        properties: {
          flight_number: { type: 'string' },
          order_number: { type: 'string' },
          tax_amount: { type: 'number' },
          customer: { type: 'string' },
        },
      };
      expect(await extract(invoice, schema, deep)).toEqual({
        flight_number: null,
        order_number: null,
        tax_amount: null,
        customer: 'Northwind Traders',
      });
    },
  );

  it.each([false, true])(
    'still reads a label whose words the field has, or abbreviates (deep: %s)',
    async (deep) => {
      const schema: JsonSchema = {
        type: 'object',
        properties: {
          invoice_number: { type: 'string' },
          date: { type: 'string', format: 'date' },
          total: { type: 'number', description: 'The total amount of the invoice' },
          flight_number: { type: 'string' },
        },
      };
      const lines: [string, string][] = [...invoice, ['Flight Nr.', 'BA0117']];
      expect(await extract(lines, schema, deep)).toEqual({
        invoice_number: 'INV-2026-0042',
        date: '2026-03-14',
        total: 1250,
        flight_number: 'BA0117',
      });
    },
  );

  it.each([false, true])(
    'reads a label whose qualifier says the same in another language (deep: %s)',
    async (deep) => {
      const schema: JsonSchema = {
        type: 'object',
        properties: { invoice_number: { type: 'string' } },
      };
      const lines: [string, string][] = [
        ['Facture n°', 'F2026-0042'],
        ['Client', 'Northwind Traders'],
      ];
      expect(await extract(lines, schema, deep)).toEqual({ invoice_number: 'F2026-0042' });
    },
  );
});
