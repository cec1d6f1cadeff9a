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
    company: {
      type: 'string',
      description: 'The name of the shop or company that issued the receipt',
    },
  },
};

describe('extract: an organization field takes a name, not what a label stands over', () => {
  it('leaves a contact line or an item under a name label to the letterhead', async () => {
    const pdf = await makeLayoutPdf([
      {
        elements: [
          {
            lines: ['C W KHOO HARDWARE SDN BHD', 'NO.50, JALAN PBS 14/11', '43300 SERI KEMBANGAN'],
          },
          { lines: ['Head office: 9th floor, Tower B | Phone: 080 100 444 66 | Email: a@b.my'] },
          {
            table: [
              ['ITEM NAME', 'QTY', 'AMOUNT'],
              ['AIR ADAPTOR @ 1', '1', '20.00'],
            ],
          },
        ],
      },
    ]);
    const document = await loadLayoutDocument(pdf.bytes, 'receipt.pdf');
    for (const deepEngine of [undefined, 'fuzzy-synonyms-described' as const])
      expect(
        extractDocument(document, schema, { engine: 'label-typed', deepEngine, citations: false })
          .result,
      ).toEqual({ company: 'C W KHOO HARDWARE SDN BHD' });
  });
});
