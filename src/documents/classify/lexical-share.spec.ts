import { describe, expect, it } from '@jest/globals';
import {
  DOCUMENT_READING,
  documentBag,
  lexicalFactor,
  PAGE_READING,
  requestShare,
} from './evidence.js';
import { termsOf, weightKeys } from './lexical.js';

/** A request of two categories, each its name then its criteria, read in English. */
const REQUEST = [
  ['harbour log', 'Ships arriving and leaving the harbour with their berths'],
  ['orchard diary', 'Fruit trees pruned, grafted and harvested through the seasons'],
];
const keys = weightKeys(
  REQUEST.map((texts) => texts.map((text) => termsOf(text, 'en', 'content-or-all'))),
);

describe('lexical evidence in proportion to how much of the document is the request’s words', () => {
  it('counts fully in a document written in the request’s words', () => {
    const bag = documentBag(
      ['The harbour log lists ships arriving, ships leaving and the berth of each ship.'],
      undefined,
      'en',
    );
    expect(requestShare(keys, bag)).toBeGreaterThanOrEqual(DOCUMENT_READING.lexicalCoverage);
    expect(lexicalFactor(keys, bag, true, DOCUMENT_READING)).toBe(1);
  });

  it('counts little where the request’s words are a stray few among many others', () => {
    const other = Array.from({ length: 60 }, (_, i) => `Zeile ${i} Betrag Kunde Nummer Datum`);
    const bag = documentBag([`${other.join('\n')}\nharbour`], undefined, 'en');
    const share = requestShare(keys, bag);
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThan(DOCUMENT_READING.lexicalCoverage);
    const factor = lexicalFactor(keys, bag, true, DOCUMENT_READING);
    expect(factor).toBeCloseTo(share / DOCUMENT_READING.lexicalCoverage, 10);
    expect(factor).toBeLessThan(0.2);
  });

  it('counts as the reading says across languages, and pages read alone are not scaled', () => {
    const empty = documentBag([''], undefined, 'en');
    expect(requestShare(keys, empty)).toBe(0);
    expect(lexicalFactor(keys, empty, false, DOCUMENT_READING)).toBe(0);
    expect(lexicalFactor(keys, empty, false, PAGE_READING)).toBe(PAGE_READING.crossLanguageLexical);
    expect(lexicalFactor(keys, empty, true, PAGE_READING)).toBe(1);
  });
});
