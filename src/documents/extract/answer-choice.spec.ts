import { describe, expect, it } from '@jest/globals';
import type { LayoutLine } from '../parse/layout.types.js';
import { chooseAnswers, preferCheckedDates } from './answer-choice.js';
import { documentContext } from './document-context.js';
import { scalarField, type Leaf } from './field-search.js';

function line(text: string, index: number): LayoutLine {
  const bbox = { left: 0.1, top: 0.05 + index * 0.03, width: 0.5, height: 0.02, page: 1 };
  return { text, bbox, size: 0.02, segments: [], words: [] };
}

const lines = [
  'This Agreement is entered into as of March 18, 2003 by Alpha Corp and Beta Ltd.',
  'Whereas the earlier agreement expired on May 28, 2001.',
  'Subtotal 45.00',
  'Savings -9.60',
  'Total 47.70',
  'Total 47.70 paid in cash',
  'Tax 2.70',
  'Amount 61.20',
  'Net 58.50',
  'KEDAI RUNCIT SENG HENG',
  'NO 12, JALAN MEWAH',
  'Thank you for shopping at Kedai Runcit Seng Heng',
  '81200 JOHOR BAHRU',
  'SYARIKAT BOON HUAT &',
  'SONS',
  'TOKO MAJU JAYA',
  'JL. MERDEKA NO. 10',
].map(line);
const context = documentContext(lines);

function leaf(value: unknown, at: number, confidence: number): Leaf {
  const { text, bbox } = lines[at];
  return { kind: 'leaf', value, confidence, citations: [{ type: 'Text', content: text, bbox }] };
}

/** A value read on over several lines: their texts joined, each line cited. */
function block(at: readonly number[], confidence: number): Leaf {
  return {
    kind: 'leaf',
    value: at.map((i) => lines[i].text).join('\n'),
    confidence,
    citations: at.map((i) => ({ type: 'Key Value', content: lines[i].text, bbox: lines[i].bbox })),
  };
}

const date = scalarField('date', 'date', {
  type: 'string',
  format: 'date',
  description: 'The date of the agreement',
});
const total = scalarField('total', 'total', { type: 'number', description: 'The total paid' });
const parties = scalarField('parties', 'parties', { type: 'string' });
const address = scalarField('address', 'address', {
  type: 'string',
  description: 'The address of the shop',
});
const company = scalarField('company', 'company', {
  type: 'string',
  description: 'The name of the shop',
});

describe('deep extract choosing between its answer and default answer', () => {
  it('keeps default answer when deep finds nothing or the same value', () => {
    const own = new Map([['total', leaf(47.7, 4, 0.5)]]);
    expect(chooseAnswers([total], own, new Map(), lines, context).get('total')?.value).toBe(47.7);
    const same = new Map([['total', leaf(47.7, 5, 0.8)]]);
    expect(chooseAnswers([total], own, same, lines, context).get('total')?.confidence).toBe(0.8);
  });

  it('adds what only deep found', () => {
    const more = new Map([['total', leaf(47.7, 4, 0.5)]]);
    expect(chooseAnswers([total], new Map(), more, lines, context).get('total')?.value).toBe(47.7);
  });

  it('prefers a paid amount to a deduction, whichever pass found it', () => {
    const deduction = new Map([['total', leaf(-9.6, 3, 0.8)]]);
    const paid = new Map([['total', leaf(47.7, 4, 0.8)]]);
    expect(chooseAnswers([total], deduction, paid, lines, context).get('total')?.value).toBe(47.7);
    expect(chooseAnswers([total], paid, deduction, lines, context).get('total')?.value).toBe(47.7);
  });

  it('prefers the amount two other amounts of the document add up to', () => {
    // 61.20 = 58.50 + 2.70; 58.50 is the sum of nothing: that outweighs a surer search.
    const net = new Map([['total', leaf(58.5, 8, 0.85)]]);
    const gross = new Map([['total', leaf(61.2, 7, 0.75)]]);
    expect(chooseAnswers([total], net, gross, lines, context).get('total')?.value).toBe(61.2);
    expect(chooseAnswers([total], gross, net, lines, context).get('total')?.value).toBe(61.2);
  });

  it('prefers the date the document states first to a later one', () => {
    const head = new Map([['date', leaf('2003-03-18', 0, 0.3)]]);
    const recital = new Map([['date', leaf('2001-05-28', 1, 0.35)]]);
    expect(chooseAnswers([date], head, recital, lines, context).get('date')?.value).toBe(
      '2003-03-18',
    );
    expect(chooseAnswers([date], recital, head, lines, context).get('date')?.value).toBe(
      '2003-03-18',
    );
  });

  it("reads default's value on over the lines under it only when they carry it on", () => {
    // An address read on over its block; a name broken after "&" read on to its tail.
    const street = new Map([['address', leaf('NO 12, JALAN MEWAH', 10, 0.6)]]);
    const wholeAddress = new Map([['address', block([10, 12], 0.6)]]);
    expect(
      chooseAnswers([address], street, wholeAddress, lines, context).get('address')?.value,
    ).toBe('NO 12, JALAN MEWAH\n81200 JOHOR BAHRU');
    const broken = new Map([['company', leaf('SYARIKAT BOON HUAT &', 13, 0.6)]]);
    const wholeName = new Map([['company', block([13, 14], 0.6)]]);
    expect(chooseAnswers([company], broken, wholeName, lines, context).get('company')?.value).toBe(
      'SYARIKAT BOON HUAT &\nSONS',
    );
    // A name read on into the address under it stays the name, however sure deep's search.
    const name = new Map([['company', leaf('TOKO MAJU JAYA', 15, 0.6)]]);
    const intoAddress = new Map([['company', block([15, 16], 0.9)]]);
    expect(chooseAnswers([company], name, intoAddress, lines, context).get('company')?.value).toBe(
      'TOKO MAJU JAYA',
    );
  });

  it('ends the value at its line when the document gives the first line again on its own', () => {
    // The shop's name is printed again in the footer; its address under it is not part of it.
    const name = new Map([['parties', leaf('KEDAI RUNCIT SENG HENG', 9, 0.6)]]);
    const onOver = new Map([
      ['parties', leaf('KEDAI RUNCIT SENG HENG\nNO 12, JALAN MEWAH', 9, 0.6)],
    ]);
    expect(chooseAnswers([parties], name, onOver, lines, context).get('parties')?.value).toBe(
      'KEDAI RUNCIT SENG HENG',
    );
  });

  it("keeps default's answer when only deep's own search is surer of another", () => {
    // Neither name is checked by the document (each is printed once): a surer search is
    // the kind of evidence default already weighed, so default's answer stays.
    const own = new Map([['parties', leaf('Alpha Corp', 0, 0.3)]]);
    const more = new Map([['parties', leaf('Beta Ltd', 0, 0.95)]]);
    expect(chooseAnswers([parties], own, more, lines, context).get('parties')?.value).toBe(
      'Alpha Corp',
    );
    // The same answer found by default is taken when deep alone found it.
    expect(chooseAnswers([parties], new Map(), more, lines, context).get('parties')?.value).toBe(
      'Beta Ltd',
    );
  });

  it("takes, among near-tied answers for the document's own date, the one stated first", () => {
    // Two lines labelled "Date": the document's head and, later, a signature.
    const signature = leaf('2001-05-28', 1, 0.8);
    const head = leaf('2003-03-18', 0, 0.76);
    const assigned = new Map([['date', signature]]);
    preferCheckedDates([date], assigned, () => [signature, head], lines, context);
    expect(assigned.get('date')?.value).toBe('2003-03-18');
    // With no other answer found, the answer stays: nothing is made up.
    const alone = new Map([['date', signature]]);
    preferCheckedDates([date], alone, () => [], lines, context);
    expect(alone.get('date')?.value).toBe('2001-05-28');
  });

  it('never takes a passage for a value', () => {
    const passage = new Map([['parties', leaf('word '.repeat(40).trim(), 0, 0.9)]]);
    const name = new Map([['parties', leaf('Alpha Corp and Beta Ltd.', 0, 0.4)]]);
    expect(chooseAnswers([parties], name, passage, lines, context).get('parties')?.value).toBe(
      'Alpha Corp and Beta Ltd.',
    );
  });
});
