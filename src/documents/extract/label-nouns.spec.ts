import { describe, expect, it } from '@jest/globals';
import { sentenceEncoder } from '../encoder/sentence-encoder.js';
import type { Candidate } from './candidates.js';
import type { ScalarField, Scored } from './field-search.js';
import { labelsOfOtherNouns } from './label-nouns.js';

const encoder = sentenceEncoder();

/** One lone field with one label below the fit that names it outright. */
function withheldFrom(field: string, label: string, language = 'en'): boolean {
  const scored: Scored = {
    field: { key: field, name: field, text: { name: field } } as ScalarField,
    candidate: { label } as Candidate,
    value: '4711',
    score: 0.5,
    labelScore: 0.5,
  };
  return labelsOfOtherNouns(new Map([[field, [scored]]]), encoder, language).has(field);
}

describe(labelsOfOtherNouns.name, () => {
  it('withholds a "<noun> No." label whose noun brings it no nearer the field than "number" alone', () => {
    // The encoder puts seat at 0.45 from flight (above the word bound); "Seat Number" is no
    // nearer "flight number" than "number" is.
    expect(encoder).not.toBeNull();
    for (const label of ['Seat No.', 'Seat Number', 'Gate No.', 'Booking No.'])
      expect(withheldFrom('flight_number', label)).toBe(true);
    expect(withheldFrom('customer_number', 'Job No.')).toBe(true);
    expect(withheldFrom('customer_number', 'Order No.')).toBe(true);
  });

  it("keeps a label naming the field's own noun or a noun of the same thing", () => {
    expect(withheldFrom('invoice_number', 'Invoice No.')).toBe(false);
    expect(withheldFrom('flight_number', 'Flight No.')).toBe(false);
    for (const label of ['Account No.', 'Client No.', 'Kunden-Nr.', 'Buyer No.'])
      expect(withheldFrom('customer_number', label)).toBe(false);
    for (const label of ['Bill No.', 'Document No.', 'Beleg Nr.', 'Inv. #', 'Tax Invoice No.'])
      expect(withheldFrom('invoice_number', label)).toBe(false);
    expect(withheldFrom('invoice_number', 'N° de facture', 'fr')).toBe(false);
    expect(withheldFrom('invoice_number', 'Factuurnummer', 'nl')).toBe(false);
    // Not English: WordNet's page number is not read into a Spanish invoice's "Folio".
    expect(withheldFrom('invoice_number', 'Folio No.', 'es')).toBe(false);
  });

  it("withholds from a document's number a label numbering another thing", () => {
    // The encoder relates these nouns to an invoice (8-38 % of the way to "invoice number").
    for (const label of ['Order No.', 'Account No.', 'Debtor Number', 'Booking No.', 'Receipt No.'])
      expect(withheldFrom('invoice_number', label)).toBe(true);
    // A party's number is printed under other nouns: only a document's number is read so.
    expect(withheldFrom('customer_number', 'Account No.')).toBe(false);
  });

  it('reads a label written as one word as the noun and the identifier it is compounded of', () => {
    expect(withheldFrom('invoice_number', 'Kundennummer', 'de')).toBe(true);
    expect(withheldFrom('order_number', 'Kundennummer', 'de')).toBe(true);
    expect(withheldFrom('customer_number', 'Rechnungsnummer', 'de')).toBe(true);
    expect(withheldFrom('customer_number', 'Factuurnummer', 'nl')).toBe(true);
    expect(withheldFrom('customer_number', 'Fakturanummer', 'sv')).toBe(true);
    expect(withheldFrom('invoice_number', 'Klantnummer', 'nl')).toBe(true);
    expect(withheldFrom('customer_number', 'Kundennummer', 'de')).toBe(false);
    expect(withheldFrom('customer_number', 'Klantnummer', 'nl')).toBe(false);
    expect(withheldFrom('invoice_number', 'Rechnungsnummer', 'de')).toBe(false);
    // A compound whose last part is no identifier's word is no "<noun> No." label.
    expect(withheldFrom('invoice_number', 'Kundenname', 'de')).toBe(false);
  });
});
