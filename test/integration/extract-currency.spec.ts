import { afterAll, describe, expect, it } from '@jest/globals';
import type { JsonSchema } from '../../src/documents/extract/extract-schema.js';
import { extractDocument } from '../../src/documents/extract/extract.operation.js';
import { loadLayoutDocument } from '../../src/documents/parse/layout.loader.js';
import { terminateOcr } from '../../src/documents/readers/ocr.engine.js';

afterAll(async () => {
  await terminateOcr();
});

const schema: JsonSchema = {
  type: 'object',
  properties: {
    total: { type: 'number', description: 'The total amount' },
    currency: { type: 'string', description: 'The currency of the amounts, as an ISO 4217 code' },
  },
};

async function currencyOf(text: string): Promise<unknown> {
  const document = await loadLayoutDocument(Buffer.from(text), 'document.txt');
  return extractDocument(document, schema, { engine: 'label-typed', citations: false }).result
    .currency;
}

describe('extract reads a currency symbol several currencies share by the document', () => {
  it('reads "¥" as the yuan in Chinese and the yen in Japanese', async () => {
    expect(
      await currencyOf(
        '上海示例贸易有限公司\n发票号码: 20240305\n开票日期: 2024年3月5日\n合计: ¥1,280.00\n',
      ),
    ).toBe('CNY');
    expect(
      await currencyOf(
        '株式会社テスト\n請求書番号: INV-7781\nご請求金額: ¥12,000\nお支払いください。\n',
      ),
    ).toBe('JPY');
    // Nothing decides it: the symbol's most common reading.
    expect(await currencyOf('Invoice\nTotal: ¥12,000\n')).toBe('JPY');
  });

  it('reads a currency the document names among the readings of its symbol', async () => {
    expect(await currencyOf('Invoice\nTotal: ¥12,000\nAll prices in CNY.\n')).toBe('CNY');
    expect(await currencyOf('Invoice\nTotal: $120.00\nAmounts in Canadian dollars.\n')).toBe('CAD');
  });

  it('reads "$" by the country of an address, and as the US dollar when nothing decides', async () => {
    expect(
      await currencyOf(
        'Maple Supplies Inc.\n100 King St W, Toronto, ON M5X 1A9, Canada\nTotal: $120.00\n',
      ),
    ).toBe('CAD');
    expect(
      await currencyOf(
        'Outback Traders Pty Ltd\n1 George St, Sydney NSW 2000, Australia\nTotal: $120.00\n',
      ),
    ).toBe('AUD');
    expect(
      await currencyOf(
        'Golden Gate Supplies\n1 Market St, San Francisco, CA 94105\nTotal: $120.00\n',
      ),
    ).toBe('USD');
  });

  it('reads "kr" by the language of the document', async () => {
    expect(
      await currencyOf(
        'Nordisk Handel AS\nFakturanummer: 42\nTotalt å betale: 1 250,00 kr\nTakk for handelen, vi setter stor pris på at du valgte oss igjen i år.\n',
      ),
    ).toBe('NOK');
    expect(
      await currencyOf(
        'Svensk Handel AB\nFakturanummer: 42\nAtt betala: 1 250,00 kr\nTack för att du handlar hos oss, vi uppskattar att du valde oss igen i år.\n',
      ),
    ).toBe('SEK');
  });
});
