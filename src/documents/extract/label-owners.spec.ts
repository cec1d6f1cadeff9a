import { describe, expect, it } from '@jest/globals';
import { opensWithLabel } from './label-owners.js';

describe(opensWithLabel.name, () => {
  it('reads a sentence opening with a withheld label as that label', () => {
    expect(opensWithLabel('Order number: 4711', new Set(['Order number']))).toBe(true);
    expect(opensWithLabel('Our order number is 4711', new Set(['Order number']))).toBe(false);
  });

  it('reads the end of a label cut at its point by the sentence segmenter as the label', () => {
    // "ACME Ltd P.O. Number: 4711" is segmented as "ACME Ltd P.O." and "Number: 4711".
    expect(opensWithLabel('Number: 4711', new Set(['P.O. Number']))).toBe(true);
    expect(opensWithLabel('No. 4711', new Set(['Inv. No.']))).toBe(true);
    expect(opensWithLabel('Number: 4711', new Set(['Order number']))).toBe(false);
  });
});
