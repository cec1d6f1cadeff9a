import { describe, expect, it } from '@jest/globals';
import { conceptsOf, LexicalLabelSimilarity } from './label-similarity.js';

describe('labels writing the numero sign in letters', () => {
  it.each(['Order No.', 'ORDER NO', 'Order No', 'order no.', 'Order №', 'Order Nº'])(
    'reads %s as the order number',
    (label) => {
      expect(conceptsOf(label)).toEqual(new Set(['order', 'number']));
      expect(new LexicalLabelSimilarity().score(label, { name: 'order_number' })).toBe(1);
    },
  );

  it.each(['Yes/No', 'No', 'Notes', 'Nominal'])('reads no number in %s', (label) => {
    expect(conceptsOf(label).has('number')).toBe(false);
  });
});

describe('labels writing an initialism of the field name', () => {
  const similarity = new LexicalLabelSimilarity();

  it.each(['PO No.', 'P.O. No.', 'P.O. #', 'PO #', 'PO NO.', 'PO Number'])(
    'reads %s as the purchase order number',
    (label) => {
      expect(similarity.score(label, { name: 'purchase_order_number' })).toBe(1);
    },
  );

  it('reads no initialism in a word of the label or in the identifier word', () => {
    // "ID" is the identifier's word, not "invoice date"; "po" written small is no initialism.
    expect(similarity.score('Invoice ID', { name: 'invoice_date' })).toBeLessThan(1);
    expect(similarity.score('po number', { name: 'purchase_order_number' })).toBeLessThan(1);
    expect(similarity.score('PO No.', { name: 'order_number' })).toBeLessThan(0.5);
  });
});
