import { describe, expect, it } from '@jest/globals';
import { sentenceEncoder } from '../encoder/sentence-encoder.js';
import { compoundParts } from './decompounding.js';

describe(compoundParts.name, () => {
  const encoder = sentenceEncoder();

  it.each([
    ['kundennummer', ['kunden', 'nummer']],
    ['rechnungsnummer', ['rechnungs', 'nummer']],
    ['factuurnummer', ['factuur', 'nummer']],
    ['fakturanummer', ['faktura', 'nummer']],
    ['klantnummer', ['klant', 'nummer']],
  ])('splits %s where it reads likelier as two words', (word, parts) => {
    expect(compoundParts(word, encoder!)).toEqual(parts);
  });

  it.each(['customer', 'document', 'invoice', 'quotation', 'reference', 'agreement', 'number'])(
    'keeps %s whole',
    (word) => {
      expect(compoundParts(word, encoder!)).toEqual([word]);
    },
  );
});
