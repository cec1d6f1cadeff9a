import { describe, expect, it } from '@jest/globals';
import { initialismsOf } from './label-initialisms.js';

describe(initialismsOf.name, () => {
  it('reads capitals in a label written in lower case too, and letters with points', () => {
    expect(initialismsOf('PO No.')).toEqual(['po']);
    expect(initialismsOf('P.O. Number')).toEqual(['po']);
    expect(initialismsOf('VAT Reg. No.')).toEqual(['vat']);
    expect(initialismsOf('P.O. #')).toEqual(['po']);
  });

  it('reads two or three capitals before the identifier word alone in a label in capitals', () => {
    expect(initialismsOf('PO #')).toEqual(['po']);
    expect(initialismsOf('GST NO.')).toEqual(['gst']);
    // Words of a label in capitals are not told from initialisms.
    expect(initialismsOf('GRAND TOTAL')).toEqual([]);
    expect(initialismsOf('BILL NO')).toEqual([]);
    expect(initialismsOf('PO NUMBER DATE')).toEqual([]);
  });

  it("reads no initialism in a currency or in the identifier's own word", () => {
    expect(initialismsOf('Total RM')).toEqual([]);
    expect(initialismsOf('Amount EUR')).toEqual([]);
    expect(initialismsOf('Customer ID')).toEqual([]);
    expect(initialismsOf('Invoice NO')).toEqual([]);
    expect(initialismsOf('Grand total')).toEqual([]);
  });
});
