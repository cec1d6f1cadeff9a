import { describe, expect, it } from '@jest/globals';
import type { JsonSchema } from '../../src/documents/extract/extract-schema.js';
import { extractDocument } from '../../src/documents/extract/extract.operation.js';
import { readableText } from '../../src/documents/extract/readable-text.js';
import { loadLayoutDocument } from '../../src/documents/parse/layout.loader.js';
import type { ExtractEngine } from '../../src/documents/versions/engines.js';
import { makeDocx } from '../support/documents.js';

const schema: JsonSchema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string', format: 'date' },
    quantity: { type: 'integer' },
    total: { type: 'number' },
  },
};

const expected = {
  invoice_number: '12345',
  invoice_date: '2024-03-19',
  quantity: 7,
  total: 1250.5,
};

/** The same invoice lines, their digits in another script. */
function invoiceLines(digits: string, point: string, comma: string): string[] {
  const written = (ascii: string) =>
    ascii
      .replace(/\d/g, (d) => digits[Number(d)])
      .replace(/\./g, point)
      .replace(/,/g, comma);
  return [
    'ACME Trading',
    `Invoice number: ${written('12345')}`,
    `Invoice date: ${written('2024-03-19')}`,
    `Quantity: ${written('7')}`,
    `Total: ${written('1,250.50')} USD`,
  ];
}

async function extract(bytes: Buffer, filename: string, engine: ExtractEngine = 'label-typed') {
  const document = await loadLayoutDocument(bytes, filename);
  return extractDocument(document, schema, { engine, citations: false }).result;
}

describe('extract reads the digits and the direction marks of every script', () => {
  it.each([
    ['Arabic-Indic', '٠١٢٣٤٥٦٧٨٩', '٫', '٬'],
    ['Extended Arabic-Indic', '۰۱۲۳۴۵۶۷۸۹', '٫', '٬'],
    ['Devanagari', '०१२३४५६७८९', '.', ','],
    ['full-width', '０１２３４５６７８９', '．', '，'],
  ])('reads %s digits as numbers, dates and identifiers', async (_script, digits, point, comma) => {
    const lines = invoiceLines(digits, point, comma);
    expect(await extract(Buffer.from(lines.join('\n')), 'invoice.txt')).toEqual(expected);
    expect(await extract(await makeDocx(lines), 'invoice.docx')).toEqual(expected);
    const html = `<html><body>${lines.map((l) => `<p>${l}</p>`).join('')}</body></html>`;
    expect(await extract(Buffer.from(html), 'invoice.html', 'label-normalized')).toEqual(expected);
  });

  it('drops bidirectional controls inside values and between a label and its colon', async () => {
    const lines = [
      'ACME Trading',
      'Invoice number\u200f: \u200f12345\u200e',
      'Invoice date: \u20662024-03-19\u2069',
      'Quantity: \u202b7\u202c',
      'Total: \u200e1,250.50\u200e USD',
    ];
    expect(await extract(Buffer.from(lines.join('\n')), 'invoice.txt')).toEqual(expected);
  });

  it('reads a right-to-left label line with Arabic-Indic digits', async () => {
    const document = Buffer.from('شركة الاختبار\nرقم الفاتورة: \u200f١٢٣٤٥\nالمبلغ: ٣٠٠\n');
    const arabic = {
      type: 'object',
      properties: { 'رقم الفاتورة': { type: 'string' } },
    } satisfies JsonSchema;
    const found = extractDocument(await loadLayoutDocument(document, 'invoice.txt'), arabic, {
      engine: 'label-typed',
      citations: false,
    }).result;
    expect(found).toEqual({ 'رقم الفاتورة': '12345' });
  });

  it('returns values with ASCII digits and cites the line as the document prints it', async () => {
    const lines = invoiceLines('٠١٢٣٤٥٦٧٨٩', '٫', '٬');
    const document = await loadLayoutDocument(Buffer.from(lines.join('\n')), 'invoice.txt');
    const { result } = extractDocument(document, schema, {
      engine: 'label-typed',
      citations: true,
    });
    const number = result.invoice_number as { value: string; citations: { content: string }[] };
    expect(number.value).toBe('12345');
    expect(number.citations.map((citation) => citation.content)).toEqual(['Invoice number: ١٢٣٤٥']);
  });

  it.each([
    ['Russian', 'Дата счета: 14 июля 2021 г.'],
    ['Ukrainian', 'Дата рахунку: 14 липня 2021 р.'],
    ['Greek', 'Ημερομηνία τιμολογίου: 14 Ιουλίου 2021'],
    ['Arabic', 'تاريخ الفاتورة: ١٤ يوليو ٢٠٢١'],
    ['Hindi', 'चालान तिथि: 14 जुलाई 2021'],
  ])('reads a date in %s with the month by name', async (_language, line) => {
    const document = await loadLayoutDocument(Buffer.from(`ACME\n${line}\n`), 'invoice.txt');
    const dated = { type: 'object', properties: { date: { type: 'string', format: 'date' } } };
    const found = extractDocument(document, dated satisfies JsonSchema, {
      engine: 'label-typed',
      citations: false,
    }).result;
    expect(found).toEqual({ date: '2021-07-14' });
  });

  it.each([
    ['Chinese', '经销协议', '本经销协议由北风贸易公司与康托索有限公司于2021年7月14日签订。'],
    [
      'Arabic',
      'اتفاقية توزيع',
      'أبرمت هذه الاتفاقية في 14 يوليو 2021 بين شركة نورثويند وشركة كونتوسو.',
    ],
  ])(
    'reads the title of an agreement in %s above its first sentence',
    async (_language, title, first) => {
      const docx = await makeDocx([{ heading: 1, text: title }, first]);
      const titled = {
        type: 'object',
        properties: { title: { type: 'string', description: 'The title of the agreement' } },
      } satisfies JsonSchema;
      const found = extractDocument(await loadLayoutDocument(docx, 'agreement.docx'), titled, {
        engine: 'label-typed',
        citations: false,
      }).result;
      expect(found).toEqual({ title });
    },
  );

  it('keeps every position of a text whose digits it folds', () => {
    const text = 'المبلغ ١٢٬٥٠٠٫٧٥ ر.س';
    const readable = readableText(text);
    expect(readable).toBe('المبلغ 12,500.75 ر.س');
    expect(readable).toHaveLength(text.length);
    // A comma or point of running text is no separator: only one between two digits is.
    expect(readableText('北京市，朝阳区 ３，５')).toBe('北京市，朝阳区 3,5');
  });
});
