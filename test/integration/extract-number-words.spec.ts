/**
 * A number field whose labelled value is written in words: read when a reader reads the
 * document's language, else null, and never a figure from another line of the document.
 * The documents are generated PDFs and texts; the label similarity is the installed encoder's.
 */
import { describe, expect, it } from '@jest/globals';
import type { JsonSchema } from '../../src/documents/extract/extract-schema.js';
import { extractDocument } from '../../src/documents/extract/extract.operation.js';
import { loadLayoutDocument } from '../../src/documents/parse/layout.loader.js';
import { makeLayoutPdf } from '../support/layout-documents.js';

const schema: JsonSchema = {
  type: 'object',
  properties: {
    quantity: { type: 'number', description: 'Number of units ordered' },
    term_days: { type: 'integer', description: 'Length of the term in days' },
  },
};

async function extract(lines: [string, string][], deep: boolean) {
  const pdf = await makeLayoutPdf([{ footer: 'Page 1', elements: [{ keyValues: lines }] }]);
  const document = await loadLayoutDocument(pdf.bytes, 'order.pdf');
  return extractDocument(document, schema, {
    engine: 'label-typed',
    deepEngine: deep ? 'fuzzy-synonyms-described' : undefined,
    citations: false,
  }).result;
}

describe('numbers written in words', () => {
  it.each([false, true])('reads English number words (deep: %s)', async (deep) => {
    const result = await extract(
      [
        ['Purchase order', 'PO-300'],
        ['Supplier', 'Acme Ltd, 300 Main Street'],
        ['Quantity', 'twelve'],
        ['Total weight', '300 kg'],
        ['Term', 'thirty (30) days'],
      ],
      deep,
    );
    // "(30)" restates the words: it is no accounting negative.
    expect(result).toEqual({ quantity: 12, term_days: 30 });
  });

  it.each([false, true])(
    'answers null for number words no reader reads, not another figure (deep: %s)',
    async (deep) => {
      const text = 'Quantity: a dozen\nWeight 300 g\n';
      const document = await loadLayoutDocument(new TextEncoder().encode(text), 'order.txt');
      const bare: JsonSchema = { type: 'object', properties: { quantity: { type: 'number' } } };
      const { result } = extractDocument(document, bare, {
        engine: 'label-typed',
        deepEngine: deep ? 'fuzzy-synonyms-described' : undefined,
        citations: false,
      });
      expect(result.quantity).toBeNull();
    },
  );

  it('answers null for a German number word', async () => {
    const pdf = await makeLayoutPdf([
      {
        footer: 'Seite 1',
        elements: [
          {
            paragraph:
              'Wir bestellen hiermit die folgenden Artikel zu den vereinbarten Bedingungen und ' +
              'bitten um eine schriftliche Bestätigung der Lieferung.',
          },
          {
            keyValues: [
              ['Menge', 'zwölf'],
              ['Gesamtgewicht', '300 kg'],
            ],
          },
        ],
      },
    ]);
    const document = await loadLayoutDocument(pdf.bytes, 'bestellung.pdf');
    const { result } = extractDocument(
      document,
      { type: 'object', properties: { menge: { type: 'number', description: 'Menge' } } },
      { engine: 'label-typed', citations: false },
    );
    expect(result.menge).toBeNull();
  });
});
