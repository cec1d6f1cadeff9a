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
