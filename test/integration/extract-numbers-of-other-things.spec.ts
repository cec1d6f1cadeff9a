import { describe, expect, it } from '@jest/globals';
import type { JsonSchema } from '../../src/documents/extract/extract-schema.js';
import { extractEach } from '../support/extract-each.js';

const lone = (field: string, type = 'string', description?: string): JsonSchema => ({
  type: 'object',
  properties: { [field]: { type, ...(description ? { description } : {}) } },
});

describe("extract keeps another thing's number, a count and a document's number apart", () => {
  it("gives an invoice's number no label numbering an order, an account or a debtor", async () => {
    for (const label of ['Order No.', 'Account No.', 'Debtor Number'])
      for (const result of await extractEach(
        ['ACME Supplies Ltd', `${label}: 4711`],
        lone('invoice_number'),
      ))
        expect(result).toEqual({ invoice_number: null });
    for (const label of [
      'Invoice No.',
      'Inv. #',
      'Rechnungsnummer',
      'N° de facture',
      'Factuurnummer',
    ])
      for (const result of await extractEach(
        ['ACME Supplies Ltd', `${label}: 4711`],
        lone('invoice_number'),
      ))
        expect(result).toEqual({ invoice_number: '4711' });
    // Beside the invoice's own label, the order's number is left to its own field.
    const both: JsonSchema = {
      type: 'object',
      properties: { invoice_number: { type: 'string' }, order_number: { type: 'string' } },
    };
    for (const result of await extractEach(
      ['ACME Supplies Ltd', 'Order No.: PO-77', 'Invoice No.: INV-12'],
      both,
    ))
      expect(result).toEqual({ invoice_number: 'INV-12', order_number: 'PO-77' });
  });

  it('reads a bare small figure beside "Total" as a count where amounts are written as money', async () => {
    const total = lone('total', 'number', 'The total amount due');
    for (const result of await extractEach(
      ['ACME Ltd', 'Widget 12.50 EUR', 'Total 3', 'Amount due 12.50 EUR'],
      total,
    ))
      expect(result).toEqual({ total: 12.5 });
    for (const result of await extractEach(['ACME Ltd', 'Widget 12.50 EUR', 'Total 3'], total))
      expect(result).toEqual({ total: null });
    for (const result of await extractEach(['ACME Ltd', 'Total 3'], total))
      expect(result).toEqual({ total: 3 });
  });

  it('reads "Invoice 42" as the invoice\'s number, not its amount', async () => {
    const amount = lone('amount', 'number', 'invoice amount');
    for (const result of await extractEach(['Invoice 42', 'Sum 10.00 EUR'], amount))
      expect(result).toEqual({ amount: 10 });
    for (const result of await extractEach(['Invoice 42', 'Total 10.00 EUR'], amount))
      expect(result.amount).not.toBe(42);
  });

  it('reads a total whose currency is drawn in a column of its own', async () => {
    const total = lone('total', 'number', 'The total amount paid');
    for (const result of await extractEach(
      [
        'SHELL',
        'V-POWER 97      RM      86.00 A',
        'TOTAL      RM      86.00',
        'VISA      RM      86.00',
      ],
      total,
    ))
      expect(result).toEqual({ total: 86 });
  });
});
