import { afterAll, describe, expect, it } from '@jest/globals';
import type { JsonSchema } from '../../src/documents/extract/extract-schema.js';
import { extractDocument } from '../../src/documents/extract/extract.operation.js';
import { terminateOcr } from '../../src/documents/readers/ocr.engine.js';
import { loadLayoutDocument } from '../../src/documents/parse/layout.loader.js';
import type { ExtractEngine } from '../../src/documents/versions/engines.js';
import { makeLayoutPdf } from '../support/layout-documents.js';

afterAll(async () => {
  await terminateOcr();
});

const text = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  properties,
});

async function extract(bytes: Buffer, filename: string, schema: JsonSchema, engine: ExtractEngine) {
  const document = await loadLayoutDocument(bytes, filename);
  return extractDocument(document, schema, { engine, citations: false }).result;
}

describe('extract matches labels whatever their script and Unicode form', () => {
  it(`answers "Label: value" with the value on the label's own line, not the next label`, async () => {
    const pdf = await makeLayoutPdf([
      {
        elements: [
          { title: 'Muster Handel GmbH' },
          {
            lines: [
              'Rechnungsnummer: 42',
              'Rechnungsdatum: 05.03.2024',
              'Fälligkeitsdatum: 19.03.2024',
            ],
          },
        ],
      },
    ]);
    const schema = text({
      Rechnungsnummer: { type: 'string' },
      Rechnungsdatum: { type: 'string' },
      Fälligkeitsdatum: { type: 'string' },
    });
    expect(await extract(pdf.bytes, 'rechnung.pdf', schema, 'label-typed')).toEqual({
      Rechnungsnummer: '42',
      Rechnungsdatum: '05.03.2024',
      Fälligkeitsdatum: '19.03.2024',
    });
  });

  it.each<ExtractEngine>(['label-exact', 'label-normalized', 'label-typed'])(
    'matches a decomposed (NFD) field name to the composed label, and back (%s)',
    async (engine) => {
      const composed = 'Fälligkeitsdatum';
      const decomposed = composed.normalize('NFD');
      expect(decomposed).not.toBe(composed);
      for (const [printed, asked] of [
        [composed, decomposed],
        [decomposed, composed],
      ]) {
        const document = Buffer.from(`Muster GmbH\nRechnungsnummer: 42\n${printed}: 19.03.2024\n`);
        const schema = text({ [asked]: { type: 'string' } });
        expect(await extract(document, 'rechnung.txt', schema, engine)).toEqual({
          [asked]: '19.03.2024',
        });
      }
    },
  );

  it('matches field names written in Japanese and Arabic to the same labels', async () => {
    const japanese = Buffer.from(
      '株式会社テスト\n請求書番号: INV-7781\n支払期日: 2024-03-19\n合計: 12000\n',
    );
    expect(
      await extract(
        japanese,
        'invoice.txt',
        text({ 請求書番号: { type: 'string' }, 支払期日: { type: 'string' } }),
        'label-typed',
      ),
    ).toEqual({ 請求書番号: 'INV-7781', 支払期日: '2024-03-19' });
    const arabic = Buffer.from(
      'شركة الاختبار\nرقم الفاتورة: INV-5520\nتاريخ الاستحقاق: 2024-03-19\nالمبلغ: 100\n',
    );
    expect(
      await extract(
        arabic,
        'invoice.txt',
        text({ 'رقم الفاتورة': { type: 'string' }, تاريخ_الاستحقاق: { type: 'string' } }),
        'label-typed',
      ),
    ).toEqual({ 'رقم الفاتورة': 'INV-5520', تاريخ_الاستحقاق: '2024-03-19' });
  });
});
