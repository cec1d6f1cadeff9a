import { afterAll, describe, expect, it } from '@jest/globals';
import type { JsonSchema } from '../../src/documents/extract/extract-schema.js';
import { extractDocument } from '../../src/documents/extract/extract.operation.js';
import { terminateOcr } from '../../src/documents/readers/ocr.engine.js';
import { loadLayoutDocument } from '../../src/documents/parse/layout.loader.js';
import { makeLayoutPdf, type LayoutPageSpec } from '../support/layout-documents.js';

// Pages with little text are read by OCR, whose worker thread outlives this file unless it
// is stopped: in one process (`--runInBand`) jest would not exit.
afterAll(async () => {
  await terminateOcr();
});

/** What a customer sends: field names and plain English descriptions, no labels. */
const invoiceSchema: JsonSchema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string', description: 'The invoice number' },
    date: { type: 'string', format: 'date', description: 'The invoice date' },
    amount: { type: 'number', description: 'The total amount of the invoice, including taxes' },
    currency: { type: 'string', description: 'The currency of the amounts, as an ISO 4217 code' },
    issuer: { type: 'string', description: 'The company that issued the invoice' },
  },
};

interface Cited {
  value: unknown;
  confidence: string;
  ambiguous?: boolean;
  citations: { content: string; bbox: { page: number } }[];
}

async function extract(pages: LayoutPageSpec[], schema = invoiceSchema, deep = false) {
  const pdf = await makeLayoutPdf(pages);
  const document = await loadLayoutDocument(pdf.bytes, 'invoice.pdf');
  const options = { engine: 'label-typed' as const, citations: true };
  return extractDocument(
    document,
    schema,
    deep ? { ...options, deepEngine: 'fuzzy-synonyms-described' } : options,
  ).result as Record<string, Cited>;
}

const values = (result: Record<string, Cited>) =>
  Object.fromEntries(Object.entries(result).map(([k, v]) => [k, v.value]));

describe('extract reads invoices in the languages it supports, with no labels in the schema', () => {
  it('German: compound labels, a day-month-name date, decimal commas and the euro sign', async () => {
    const result = await extract([
      {
        elements: [
          { lines: ['Muster Handel GmbH', 'Hauptstraße 5', '10115 Berlin'] },
          { title: 'Rechnung' },
          {
            keyValues: [
              ['Rechnungsnr.', 'RE-2024-117'],
              ['Rechnungsdatum', '5. März 2024'],
            ],
          },
          {
            table: [
              ['Zwischensumme', '1.250,00 €'],
              ['MwSt. 19 %', '237,50 €'],
              ['Gesamtbetrag', '1.487,50 €'],
            ],
          },
        ],
      },
    ]);
    expect(values(result)).toEqual({
      invoice_number: 'RE-2024-117',
      date: '2024-03-05',
      amount: 1487.5,
      currency: 'EUR',
      issuer: 'Muster Handel GmbH',
    });
    expect(result.amount.citations[0].content).toContain('1.487,50');
  });

  it('French: "Facture n°", a month name, the total due rather than the total before tax', async () => {
    const result = await extract([
      {
        elements: [
          { lines: ['Netpresse SARL', '12 rue des Lilas', '75011 Paris'] },
          {
            keyValues: [
              ['Facture n°', 'F-2022-0893'],
              ['Date', '02 Juillet 2015'],
            ],
          },
          {
            table: [
              ['Total HT', '45,93 €'],
              ['TVA 20 %', '10,09 €'],
              ['Net à payer', '56,02 €'],
            ],
          },
        ],
      },
    ]);
    expect(values(result)).toMatchObject({
      invoice_number: 'F-2022-0893',
      date: '2015-07-02',
      amount: 56.02,
      currency: 'EUR',
    });
  });

  it('Dutch: values on the row under their labels', async () => {
    const result = await extract([
      {
        elements: [
          { lines: ['Coolblue B.V.', 'Weena 664', '3012 CN Rotterdam'] },
          {
            table: [
              ['Factuurnummer', 'Factuurdatum', 'Klantnummer'],
              ['993548900', '19-04-2014', '6669263'],
            ],
          },
          { gap: 20 },
          {
            table: [
              ['Totaal excl. btw', '593,36'],
              ['Totaal te betalen', '€ 717,97'],
            ],
          },
        ],
      },
    ]);
    expect(values(result)).toEqual({
      invoice_number: '993548900',
      date: '2014-04-19',
      amount: 717.97,
      currency: 'EUR',
      issuer: 'Coolblue B.V.',
    });
  });

  it('Polish, as a text file laid out in columns: "Faktura nr", a dotted date and złoty', async () => {
    const text = [
      'Polski Koncern Naftowy ORLEN S.A.',
      'ul. Chemików 7, 09-411 Płock',
      '',
      'Faktura nr      FV/12/2020',
      'Data wystawienia      31.12.2020',
      'Razem do zapłaty      316,83 zł',
    ].join('\n');
    const document = await loadLayoutDocument(Buffer.from(text, 'utf8'), 'faktura.txt');
    const { result } = extractDocument(document, invoiceSchema, {
      engine: 'label-typed',
      citations: false,
    });
    expect(result).toMatchObject({
      invoice_number: 'FV/12/2020',
      date: '2020-12-31',
      amount: 316.83,
      currency: 'PLN',
    });
  });
});

describe('extract matches labels in languages the encoder does not read', () => {
  it('reads a field word with another language\'s ending ("Totalt", "Totale") as the word', async () => {
    const totals: [string, string][] = [
      ['Nordisk Handel AS\nFakturanummer: 42\nTotalt å betale: 1 250,00 kr\n', 'NOK'],
      ['Rossi Forniture S.r.l.\nFattura n. 42\nTotale fattura: 1.250,00 €\n', 'EUR'],
    ];
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        total: { type: 'number', description: 'The total amount paid' },
        currency: { type: 'string' },
      },
    };
    for (const [text, currency] of totals) {
      const document = await loadLayoutDocument(Buffer.from(text, 'utf8'), 'invoice.txt');
      const { result } = extractDocument(document, schema, {
        engine: 'label-typed',
        citations: false,
      });
      expect(result).toEqual({ total: 1250, currency });
    }
  });
});

describe('extract reports what it is unsure of', () => {
  it('a date both orders allow is read day-first and marked ambiguous; a missing value is null', async () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        date: { type: 'string', format: 'date' },
        purchase_order: { type: 'string', description: 'The buyer’s purchase order' },
      },
    };
    const result = await extract([{ elements: [{ keyValues: [['Date', '03/04/2020']] }] }], schema);
    expect(result.date).toMatchObject({ value: '2020-04-03', ambiguous: true });
    expect(result.purchase_order).toEqual({ value: null, citations: [], confidence: 'low' });
  });

  it('deep extract keeps the amounts that add up (net + tax = total)', async () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        net: { type: 'number', description: 'Amount before tax' },
        tax: { type: 'number', description: 'The tax amount' },
        total: { type: 'number', description: 'The total amount due' },
      },
    };
    const result = await extract(
      [
        {
          elements: [
            {
              table: [
                ['Net amount', '100.00'],
                ['Tax', '21.00'],
                ['Total due', '121.00'],
              ],
            },
          ],
        },
      ],
      schema,
      true,
    );
    expect(values(result)).toEqual({ net: 100, tax: 21, total: 121 });
    expect(result.total.confidence).toBe('high');
  });
});
