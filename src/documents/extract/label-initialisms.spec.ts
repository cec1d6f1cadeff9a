import { describe, expect, it } from '@jest/globals';
import { initialismsOf } from './label-initialisms.js';

describe(initialismsOf.name, () => {
  it('reads capitals in a label written in lower case too, and letters with points', () => {
    expect(initialismsOf('PO No.')).toEqual(['po']);
    expect(initialismsOf('P.O. Number')).toEqual(['po']);
    expect(initialismsOf('VAT Reg. No.')).toEqual(['vat']);
    expect(initialismsOf('P.O. #')).toEqual(['po']);
  });

  it("reads a label in capitals' first word of two or three letters when the identifier's word ends it", () => {
    expect(initialismsOf('PO #')).toEqual(['po']);
    expect(initialismsOf('GST NO.')).toEqual(['gst']);
    // Later words of a label in capitals are words ("REG" of registration).
    expect(initialismsOf('VAT REG NO')).toEqual(['vat']);
    expect(initialismsOf('SST ID NO')).toEqual(['sst']);
    expect(initialismsOf('A REG NO')).toEqual([]);
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
