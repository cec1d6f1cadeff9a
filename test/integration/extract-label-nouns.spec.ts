import { describe, expect, it } from '@jest/globals';
import type { JsonSchema } from '../../src/documents/extract/extract-schema.js';
import { extractEach } from '../support/extract-each.js';

const lone = (field: string, description?: string): JsonSchema => ({
  type: 'object',
  properties: { [field]: { type: 'string', ...(description ? { description } : {}) } },
});

describe('extract gives a label to the field whose noun it names', () => {
  it('gives "Seat No." to no flight number, and "Flight No." to it', async () => {
    for (const label of ['Seat No.', 'Seat Number', 'Gate No.'])
      for (const result of await extractEach(
        ['ACME Airways', `${label}: 12`],
        lone('flight_number'),
      ))
        expect(result).toEqual({ flight_number: null });
    for (const result of await extractEach(
      ['ACME Airways', 'Flight No.: LX318'],
      lone('flight_number'),
    ))
      expect(result).toEqual({ flight_number: 'LX318' });
    for (const [label, field] of [
      ['Invoice No.', 'invoice_number'],
      ['Account No.', 'customer_number'],
    ])
      for (const result of await extractEach(['ACME Supplies Ltd', `${label}: 4711`], lone(field)))
        expect(result).toEqual({ [field]: '4711' });
  });

  it('reads a compound label as the noun and the number it is written of', async () => {
    const numbers = (described: boolean): JsonSchema => ({
      type: 'object',
      properties: {
        invoice_number: { type: 'string', ...(described ? { description: 'invoice number' } : {}) },
        customer_number: {
          type: 'string',
          ...(described ? { description: 'customer number' } : {}),
        },
      },
    });
    for (const [lines, expected] of [
      [
        ['Muster GmbH', 'Kundennummer: K-4711'],
        { invoice_number: null, customer_number: 'K-4711' },
      ],
      [
        ['Muster GmbH', 'Rechnungsnummer: R-2024-17'],
        { invoice_number: 'R-2024-17', customer_number: null },
      ],
      [
        ['Voorbeeld BV', 'Factuurnummer: F-2024-17'],
        { invoice_number: 'F-2024-17', customer_number: null },
      ],
      [
        ['Exempel AB', 'Fakturanummer: F-2024-17'],
        { invoice_number: 'F-2024-17', customer_number: null },
      ],
    ] as const)
      for (const described of [false, true])
        for (const result of await extractEach([...lines], numbers(described)))
          expect(result).toEqual(expected);
    // A field alone in its schema: the compound of another noun is not its label.
    for (const [line, field] of [
      ['Kundennummer: K-4711', 'invoice_number'],
      ['Rechnungsnummer: R-2024-17', 'customer_number'],
      ['Factuurnummer: F-2024-17', 'customer_number'],
    ])
      for (const result of await extractEach(['Muster GmbH', line], lone(field)))
        expect(result).toEqual({ [field]: null });
  });

  it("reads no amount in a heading's number, and the amount written as money", async () => {
    const total: JsonSchema = {
      type: 'object',
      properties: { total: { type: 'number', description: 'The total amount due' } },
    };
    const body = 'The costs of the works are set out below, as the parties agreed on signing.';
    for (const heading of ['3 Total costs', 'Section 3: Total costs', '3.2 Total costs'])
      for (const result of await extractEach(['ACME Ltd', heading, body], total))
        expect(result).toEqual({ total: null });
    for (const result of await extractEach(
      ['ACME Ltd', '3 Total costs', 'The total costs of the works are EUR 1,250.00.'],
      total,
    ))
      expect(result).toEqual({ total: 1250 });
  });
});
