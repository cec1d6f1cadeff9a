import { describe, expect, it } from '@jest/globals';
import type { JsonSchema } from '../../src/documents/extract/extract-schema.js';
import { extractEach } from '../support/extract-each.js';

const invoice: JsonSchema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string', format: 'date' },
    total: { type: 'number' },
    currency: { type: 'string', description: 'The currency of the amounts, as an ISO 4217 code' },
  },
};

/** The four extractions of `lines` (support/extract-each.ts), by the invoice schema unless told. */
function extractInvoice(lines: string[], schema: JsonSchema = invoice) {
  return extractEach(lines, schema, 'invoice');
}

describe('extract reads the currencies and dates of more scripts', () => {
  it('reads a Japanese invoice written in kanji alone: its yen after the amount or as "¥"', async () => {
    for (const total of ['1,250円', '¥1,250'])
      for (const result of await extractInvoice([
        '株式会社山田 請求書',
        'Invoice number: 12345',
        'Invoice date: 2024年3月19日',
        `Total: ${total}`,
      ]))
        expect(result).toEqual({
          invoice_number: '12345',
          invoice_date: '2024-03-19',
          total: 1250,
          currency: 'JPY',
        });
  });

  it('reads "¥" in a Chinese invoice as the yuan, and "元" after the amount', async () => {
    for (const total of ['¥1,250.00', '1,250.00元'])
      for (const result of await extractInvoice([
        '北京阳光有限公司 发票',
        'Invoice number: 12345',
        `Total: ${total}`,
      ]))
        expect(result).toMatchObject({ total: 1250, currency: 'CNY' });
  });

  it('reads a Thai date in the Buddhist era and the baht written after the amount', async () => {
    for (const result of await extractInvoice([
      'บริษัท ตัวอย่าง จำกัด',
      'Invoice number: 12345',
      'Invoice date: 19 มีนาคม 2567',
      'Total: 1,250.00 บาท',
    ]))
      expect(result).toEqual({
        invoice_number: '12345',
        invoice_date: '2024-03-19',
        total: 1250,
        currency: 'THB',
      });
  });

  it('reads the currency abbreviations CLDR lists, written after the amount', async () => {
    for (const [opening, total, currency] of [
      ['ООО «Ромашка» Счёт-фактура', '1 250,00 руб.', 'RUB'],
      ['ТОВ «Сонях» Рахунок-фактура', '1 250,00 грн', 'UAH'],
      ['Örnek Ticaret A.Ş. Fatura', '1.250,00 TL', 'TRY'],
      ['Пример ЕООД Фактура', '1 250,00 лв.', 'BGN'],
      ['Primjer d.o.o. Račun', '1.250,00 kn', 'HRK'],
    ])
      for (const result of await extractInvoice([
        opening,
        'Invoice number: 12345',
        `Total: ${total}`,
      ]))
        expect(result).toMatchObject({ total: 1250, currency });
  });

  it('reads a Thai numeric date in the Buddhist era, and a Gregorian one as written', async () => {
    for (const [written, iso] of [
      ['31/12/2567', '2024-12-31'],
      ['31/12/2024', '2024-12-31'],
    ])
      for (const result of await extractInvoice([
        'บริษัท ตัวอย่าง จำกัด ใบแจ้งหนี้',
        'เลขที่ใบแจ้งหนี้ / Invoice number: 12345',
        `วันที่ / Invoice date: ${written}`,
        'ยอดรวม / Total: 1,250.00 บาท',
      ]))
        expect(result).toEqual({
          invoice_number: '12345',
          invoice_date: iso,
          total: 1250,
          currency: 'THB',
        });
  });

  it('reads a Hebrew date, its month joined to the letter before it', async () => {
    for (const result of await extractInvoice([
      'חברה לדוגמה בע"מ',
      'Invoice number: 12345',
      'Invoice date: 19 במרץ 2024',
      'Total: 1,250.00 ₪',
    ]))
      expect(result).toEqual({
        invoice_number: '12345',
        invoice_date: '2024-03-19',
        total: 1250,
        currency: 'ILS',
      });
  });

  it('gives "Order No." to the order number, not to the schema\'s other numbers', async () => {
    const numbers: JsonSchema = {
      type: 'object',
      properties: {
        invoice_number: { type: 'integer' },
        order_number: { type: 'integer' },
        customer_number: { type: 'string' },
      },
    };
    for (const label of ['Order No.', 'ORDER NO', 'Order №', 'Order Nº', 'Purchase order number'])
      for (const result of await extractInvoice(
        ['ACME Supplies Ltd', `${label}: 4711`, 'Date: 2024-03-05'],
        numbers,
      ))
        expect(result).toEqual({ invoice_number: null, order_number: 4711, customer_number: null });
  });

  it('gives a label qualified by an initialism that names another thing to no field', async () => {
    for (const [label, field] of [
      ['PO No.', 'invoice_number'],
      ['PO #', 'invoice_number'],
      ['P.O. No.', 'customer_number'],
      ['VAT No.', 'invoice_number'],
      ['VAT REG NO', 'invoice_number'],
      ['GST REG NO', 'customer_number'],
    ])
      for (const result of await extractInvoice(['ACME Supplies Ltd', `${label}: 4711`], {
        type: 'object',
        properties: { [field]: { type: 'string' } },
      }))
        expect(result).toEqual({ [field]: null });
    // The initialism's head word is the field's ("PO": purchase order), or begins it.
    for (const [label, field] of [
      ['PO No.', 'order_number'],
      ['PO No.', 'purchase_order_number'],
      ['P.O. Number', 'purchase_order_number'],
      ['VAT No.', 'tax_number'],
      ['INV No.', 'invoice_number'],
      ['P.O. #', 'purchase_order_number'],
      ['VAT REG NO', 'tax_number'],
      ['TAX INVOICE NO', 'invoice_number'],
    ])
      for (const result of await extractInvoice(['ACME Supplies Ltd', `${label}: 4711`], {
        type: 'object',
        properties: { [field]: { type: 'string' } },
      }))
        expect(result).toEqual({ [field]: '4711' });
  });

  it('gives a label qualified by an initialism alone to no field whose words it does not spell, however near the encoder reads it', async () => {
    // "PO Number": the encoder fits it to a customer number at 0.65, an invoice number at 0.5.
    for (const label of ['PO Number', 'PO NUMBER', 'P.O. Number'])
      for (const field of ['customer_number', 'invoice_number', 'tax_number'])
        for (const result of await extractInvoice(['ACME Supplies Ltd', `${label}: 4711`], {
          type: 'object',
          properties: { [field]: { type: 'string' } },
        }))
          expect(result).toEqual({ [field]: null });
    for (const field of ['order_number', 'purchase_order_number'])
      for (const result of await extractInvoice(['ACME Supplies Ltd', 'PO Number: 4711'], {
        type: 'object',
        properties: { [field]: { type: 'string' } },
      }))
        expect(result).toEqual({ [field]: '4711' });
  });

  it('reads a function word of a label in capitals as the word, not as an initialism', async () => {
    for (const label of ['OUR REF NO', 'Our Ref No'])
      for (const result of await extractInvoice(['ACME Supplies Ltd', `${label}: 4711`], {
        type: 'object',
        properties: { invoice_number: { type: 'string' } },
      }))
        expect(result).toEqual({ invoice_number: '4711' });
  });

  it('gives "Flight No." to the flight number, not to the schema\'s other numbers', async () => {
    const numbers: JsonSchema = {
      type: 'object',
      properties: {
        invoice_number: { type: 'string' },
        customer_number: { type: 'string' },
        flight_number: { type: 'string' },
      },
    };
    for (const label of ['Flight No.', 'FLIGHT NO', 'Flight Number'])
      for (const result of await extractInvoice(['ACME Airways', `${label}: LX318`], numbers))
        expect(result).toEqual({
          invoice_number: null,
          customer_number: null,
          flight_number: 'LX318',
        });
  });

  it('reads a letter before an amount as a currency only where the document supports it', async () => {
    // A size: no currency.
    for (const result of await extractInvoice(['ACME Outfitters', 'Size: L 32', 'Total: 45.00']))
      expect(result).toMatchObject({ total: 45, currency: null });
    // The same letter before two amounts, or the currency's countries named.
    for (const lines of [
      ['Woolworths', 'Bread R 12.99', 'Total: R 129.99'],
      ['Pick n Pay, Johannesburg, South Africa', 'Total: R 129.99'],
    ])
      for (const result of await extractInvoice(lines))
        expect(result).toMatchObject({ total: 129.99, currency: 'ZAR' });
  });

  it('gives a "<noun> No." label to no number field whose noun is another thing', async () => {
    for (const [label, field] of [
      ['Flight No.', 'invoice_number'],
      // The encoder fits these at 0.52 and 0.62 for an invoice number.
      ['Flight Number', 'invoice_number'],
      ['Customer Number', 'invoice_number'],
      ['Flight No.', 'customer_number'],
      ['Room No.', 'invoice_number'],
      // A receipt acknowledges a payment: WordNet reads it as no invoice, no kind of one and
      // nothing an invoice is a kind of.
      ['Receipt No.', 'invoice_number'],
      ['Invoice No.', 'customer_number'],
      // Read with the line above as one sentence, it was the sentence search's answer.
      ['Invoice Number', 'customer_number'],
      ['Kunden-Nr.', 'invoice_number'],
    ])
      for (const result of await extractInvoice(['ACME Supplies Ltd', `${label}: 4711`], {
        type: 'object',
        properties: { [field]: { type: 'string' } },
      }))
        expect(result).toEqual({ [field]: null });
    // A noun of the same thing, or the field's own written short, still answers.
    for (const [label, field] of [
      ['Document No.', 'invoice_number'],
      ['Bill No.', 'invoice_number'],
      ['Account No.', 'customer_number'],
      ['Cust No.', 'customer_number'],
      ['Kunden-Nr.', 'customer_number'],
      ['Rechnungs Nr.', 'invoice_number'],
      ['Ref No.', 'invoice_number'],
      ['Flight No.', 'flight_number'],
      ['Account Number', 'customer_number'],
      ['Client Number', 'customer_number'],
    ])
      for (const result of await extractInvoice(['ACME Supplies Ltd', `${label}: 4711`], {
        type: 'object',
        properties: { [field]: { type: 'string' } },
      }))
        expect(result).toEqual({ [field]: '4711' });
  });
  it('reads no amount in an identifier after a number sign or joined to more digits', async () => {
    const amount: JsonSchema = {
      type: 'object',
      properties: {
        amount: { type: 'number', description: 'The total amount of the invoice, including taxes' },
      },
    };
    for (const line of [
      'Facture n° 2024-17',
      'Factura Nº 2024-17',
      'Счёт № 2024-17',
      'Invoice # 4711',
      'Invoice No. 2024/17',
    ])
      for (const schema of [amount, { type: 'object', properties: { amount: { type: 'number' } } }])
        for (const result of await extractInvoice(
          ['ACME Supplies Ltd', line],
          schema as JsonSchema,
        ))
          expect(result).toEqual({ amount: null });
    for (const result of await extractInvoice(
      ['ACME SARL', 'Facture n° 2024-17', 'Total TTC : 56,02 €'],
      amount,
    ))
      expect(result).toEqual({ amount: 56.02 });
  });

  it('gives a "<noun> No." label to a number field whose description says its noun', async () => {
    const described = (description: string): JsonSchema => ({
      type: 'object',
      properties: { customer_number: { type: 'string', description } },
    });
    // The encoder puts debtor at 0.35 from customer: named by the field alone it is withheld.
    for (const label of ['Debtor Number', 'Debtor No.']) {
      for (const result of await extractInvoice(['ACME Supplies Ltd', `${label}: 4711`], {
        type: 'object',
        properties: { customer_number: { type: 'string' } },
      }))
        expect(result).toEqual({ customer_number: null });
      for (const result of await extractInvoice(
        ['ACME Supplies Ltd', `${label}: 4711`],
        described('The customer or debtor number'),
      ))
        expect(result).toEqual({ customer_number: '4711' });
    }
    // A noun only a tail of the description says, or that it does not say, is still withheld.
    for (const [label, description] of [
      ['Flight No.', 'The customer or debtor number'],
      ['Invoice No.', 'The customer number printed on the invoice'],
    ])
      for (const result of await extractInvoice(
        ['ACME Supplies Ltd', `${label}: 4711`],
        described(description),
      ))
        expect(result).toEqual({ customer_number: null });
  });

  it('reads a label opening on its number sign ("N° client") as a "<noun> No." label', async () => {
    for (const [field, expected] of [
      ['customer_number', '4711'],
      ['order_number', null],
      ['flight_number', null],
      ['invoice_number', null],
    ] as const)
      for (const result of await extractInvoice(['ACME SARL', 'N° client: 4711'], {
        type: 'object',
        properties: { [field]: { type: 'string' } },
      }))
        expect(result).toEqual({ [field]: expected });
  });
});
