import { describe, expect, it } from '@jest/globals';
import type { Candidate } from './candidates.js';
import type { ScalarField, Scored } from './field-search.js';
import { initialismsOf, labelsNamingOtherThings } from './label-initialisms.js';

/** A field's ranked candidates: each label with how well it names the field. */
function ranked(fields: Record<string, Record<string, number>>): Map<string, Scored[]> {
  return new Map(
    Object.entries(fields).map(([name, labels]) => [
      name,
      Object.entries(labels).map(([label, labelScore]) => ({
        field: { key: name, name, text: { name } } as ScalarField,
        candidate: { label } as Candidate,
        value: '4711',
        score: labelScore,
        labelScore,
      })),
    ]),
  );
}

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

  it("reads a function word of English or of the document's language in capitals as a word", () => {
    // "OUR REF NO" reads as "Our Ref No" does: no initialism qualifies it.
    expect(initialismsOf('OUR REF NO')).toEqual([]);
    expect(initialismsOf('Our Ref No')).toEqual([]);
    // Dutch "ONS" (our) is a word in a Dutch document, letters in an English one.
    expect(initialismsOf('ONS REF NO', 'nl')).toEqual([]);
    expect(initialismsOf('ONS REF NO', 'en')).toEqual(['ons']);
    // A word the dictionary knows is still an initialism when no function word ("VAT", "PO").
    expect(initialismsOf('VAT NO')).toEqual(['vat']);
    expect(initialismsOf('PO NO')).toEqual(['po']);
  });

  it("reads no initialism in a currency or in the identifier's own word", () => {
    expect(initialismsOf('Total RM')).toEqual([]);
    expect(initialismsOf('Amount EUR')).toEqual([]);
    expect(initialismsOf('Customer ID')).toEqual([]);
    expect(initialismsOf('Invoice NO')).toEqual([]);
    expect(initialismsOf('Grand total')).toEqual([]);
  });
});

describe(labelsNamingOtherThings.name, () => {
  it('withholds a label qualified by an initialism alone from a field it cannot name, however well it fits', () => {
    // The encoder's fits of "PO Number": 0.65 for a customer number, 0.66 for an order number.
    const withheld = labelsNamingOtherThings(
      ranked({
        customer_number: { 'PO Number': 0.65 },
        order_number: { 'PO Number': 0.66 },
        invoice_number: { 'PO Number': 0.5 },
      }),
    );
    expect(withheld.get('customer_number')).toEqual(new Set(['PO Number']));
    expect(withheld.get('invoice_number')).toEqual(new Set(['PO Number']));
    expect(withheld.has('order_number')).toBe(false);
  });

  it('keeps a label naming the field outright, or saying more than its initialism', () => {
    const withheld = labelsNamingOtherThings(
      ranked({
        customer_number: { 'CRM Number': 0.96 },
        amount: { 'Total TTC': 0.7 },
        tax_amount: { 'Total TTC': 0.55 },
      }),
      'fr',
    );
    expect(withheld.size).toBe(0);
  });

  it("keeps a weak label whose word besides the initialism is one of the field's own", () => {
    const scored = (label: string, description: string): Scored => ({
      field: {
        key: 'amount',
        name: 'amount',
        text: { name: 'amount', description },
      } as ScalarField,
      candidate: { label } as Candidate,
      value: 56.02,
      score: 0.4,
      labelScore: 0.4,
    });
    const described = 'The total amount of the invoice, including taxes';
    expect(
      labelsNamingOtherThings(new Map([['amount', [scored('Total TTC', described)]]])),
    ).toEqual(new Map());
    // Without "total" among the field's words the initialism decides, as before.
    expect(
      labelsNamingOtherThings(new Map([['amount', [scored('Total TTC', 'What is owed')]]])),
    ).toEqual(new Map([['amount', new Set(['Total TTC'])]]));
  });
});
