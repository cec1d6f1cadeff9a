import { describe, expect, it } from '@jest/globals';
import type { FormField } from './edit.types.js';
import { planEdits } from './edit-plan.js';
import { FieldScorer, lexicalScore } from './field-matching.js';
import { captionsOf, pageCaptions } from './page-phrases.js';
import {
  dateLayoutIn,
  fitLength,
  formatDate,
  optionFor,
  textValue,
  truthOf,
} from './field-values.js';

/** Words only (no encoder): the rules of reading and typing, independent of the model. */
const words = new FieldScorer(null);

function field(
  id: string,
  kind: FormField['kind'],
  labels: string[],
  order: number,
  extra: Partial<FormField> = {},
): FormField {
  return { id, kind, name: id, labels, order, fill: true, ...extra };
}

const form: FormField[] = [
  field('first', 'text', ['Your first name and middle initial'], 0),
  field('last', 'text', ['Last name'], 1),
  field('spouse_last', 'text', ['Last name'], 2),
  field('start', 'text', ['Start date (DD.MM.YYYY)'], 3),
  field('address', 'text', ['Home address (number and street)'], 4),
  field('married', 'checkbox', ['Married'], 5),
  field('status', 'choice', ['Filing status'], 6, {
    options: [
      { value: 'c1[0]', labels: ['Single'] },
      { value: 'c1[1]', labels: ['Married filing jointly'] },
    ],
  }),
  field('dependant', 'text', ['(1) First name'], 7),
];

describe('planEdits', () => {
  it('reads label-value items, typed dates, ticks and choices, and keeps a comma inside a value', () => {
    const plan = planEdits(
      "first name: Ada, last name: Lovelace, start date 1 March 2027, home address: 12 Main St, Springfield, tick 'married', filing status: single, shoe size: 38",
      form,
      words,
    );
    const written = Object.fromEntries(
      plan.decisions.map((d) => [
        d.field.id,
        d.write.kind === 'text'
          ? d.write.text
          : d.write.kind === 'check'
            ? d.write.on
            : d.write.option.value,
      ]),
    );
    expect(written).toEqual({
      first: 'Ada',
      last: 'Lovelace',
      start: '01.03.2027',
      address: '12 Main St, Springfield',
      married: true,
      status: 'c1[0]',
    });
    expect(plan.unmatched.map((i) => i.text)).toEqual(['shoe size: 38']);
    expect(plan.unfilled.map((f) => f.id)).toEqual(['spouse_last', 'dependant']);
  });

  it('gives two equally named fields to two instructions in reading order', () => {
    const plan = planEdits('last name: Lovelace; last name: King', form, words);
    expect(plan.decisions.map((d) => [d.field.id, d.item?.text])).toEqual([
      ['last', 'last name: Lovelace'],
      ['spouse_last', 'last name: King'],
    ]);
  });

  it('writes form_schema values as given and leaves fill: false fields alone', () => {
    const plan = planEdits(
      '',
      [
        field('a', 'text', ['Reference'], 0, { preset: 'R-7' }),
        field('b', 'text', ['Notes'], 1, { fill: false }),
      ],
      words,
    );
    expect(plan.decisions).toMatchObject([
      { field: { id: 'a' }, item: null, write: { kind: 'text', text: 'R-7' } },
    ]);
    expect(plan.unfilled).toEqual([]);
  });
});

describe('a number over several boxes', () => {
  it('spreads a social security number over boxes of 3, 2 and 4 characters', () => {
    const boxes = [
      field('ssn1', 'text', ['Social security number'], 0, { maxLength: 3, page: 1 }),
      field('ssn2', 'text', ['Social security number'], 1, { maxLength: 2, page: 1 }),
      field('ssn3', 'text', ['Social security number'], 2, { maxLength: 4, page: 1 }),
      field('ein', 'text', ['Employer identification number'], 3, { maxLength: 2, page: 1 }),
    ];
    const plan = planEdits('social security number: 123-45-6789', boxes, words);
    expect(plan.decisions.map((d) => [d.field.id, d.write])).toEqual([
      ['ssn1', { kind: 'text', text: '123' }],
      ['ssn2', { kind: 'text', text: '45' }],
      ['ssn3', { kind: 'text', text: '6789' }],
    ]);
    expect(plan.unfilled.map((f) => f.id)).toEqual(['ein']);
  });
});

describe('tick verbs', () => {
  it('reads a tick verb written last, or split around what it ticks', () => {
    const boxes = [
      field('married', 'checkbox', ['Verheiratet'], 0),
      field('pension', 'checkbox', ['Pension'], 1),
      field('single', 'checkbox', ['Single'], 2),
      field('remark', 'text', ['Remark'], 3),
    ];
    const plan = planEdits(
      'verheiratet ankreuzen, kreuze pension an; single abwählen; remark: bitte markieren',
      boxes,
      words,
    );
    expect(
      plan.decisions.map((d) => [
        d.field.id,
        d.write.kind === 'check' ? d.write.on : d.write.kind === 'text' ? d.write.text : '',
      ]),
    ).toEqual([
      ['married', true],
      ['pension', true],
      ['single', false],
      ['remark', 'bitte markieren'],
    ]);
  });
});

describe('fields named alike', () => {
  it('gives a value to the field it fits, and never to one that refuses it', () => {
    const fields = [
      field('consent', 'choice', ['E-mail address: I agree to receive e-mail'], 0, {
        options: [{ value: 'yes', labels: ['I agree'] }],
      }),
      field('zip4', 'text', ['ZIP code'], 1, { maxLength: 4 }),
      field('zip5', 'text', ['ZIP code'], 2, { maxLength: 5 }),
      field('email', 'text', ['E-mail address'], 3, { maxLength: 20 }),
    ];
    const plan = planEdits('ZIP code: 62704; e-mail address: jq@example.com', fields, words);
    expect(plan.decisions.map((d) => [d.field.id, d.write])).toEqual([
      ['zip5', { kind: 'text', text: '62704' }],
      ['email', { kind: 'text', text: 'jq@example.com' }],
    ]);
    expect(plan.unmatched).toEqual([]);
  });
});

describe('captions of the boxes of a page', () => {
  const phrase = (text: string, x: number, right: number, y: number) => ({
    text,
    x,
    right,
    y,
    height: 7,
  });
  it('gives a printed phrase to the box it is nearest to', () => {
    // "Apt./Unit Number [box]   City [box]" on one line: "City" is after the first box.
    const phrases = [phrase('Apt./Unit Number', 35, 89, 421), phrase('City', 204, 216, 422)];
    const boxes = [
      { rect: { x: 93, y: 416, width: 85, height: 16 }, tickBox: false },
      { rect: { x: 231, y: 415, width: 311, height: 16 }, tickBox: false },
    ];
    expect(captionsOf(boxes[0].rect, phrases, false)).toEqual(['Apt./Unit Number', 'City']);
    expect(pageCaptions(boxes, phrases)).toEqual([['Apt./Unit Number'], ['City']]);
  });

  it("takes a row's caption across the page when the phrase before a box only numbers the row", () => {
    // "8 Wages, salaries, tips . . . . . 8 [dollars][cents]", then "9a Taxable interest ... 9a [box]".
    const phrases = [
      phrase('8 Wages, salaries, tips', 36, 150, 351),
      phrase('8', 428, 433, 351),
      phrase('9a Taxable interest', 36, 116, 339),
      phrase('9a', 425, 435, 339),
    ];
    const boxes = [
      { rect: { x: 443, y: 349, width: 61, height: 11 }, tickBox: false },
      { rect: { x: 508, y: 349, width: 20, height: 11 }, tickBox: false },
      { rect: { x: 443, y: 337, width: 61, height: 11 }, tickBox: false },
    ];
    expect(pageCaptions(boxes, phrases)).toEqual([
      ['8', '8 Wages, salaries, tips'],
      [],
      ['9a', '9a Taxable interest'],
    ]);
    // Leader dots bridge the way, and a box in a column right of its row is captioned too.
    const leaders = { ...phrase('. . . . . . . . .', 160, 440, 351), leader: true };
    const tick = { x: 463, y: 349, width: 22, height: 12 };
    expect(captionsOf(tick, [phrases[0], leaders], true)).toEqual(['8 Wages, salaries, tips']);
  });
});

describe('labels copied from a form, commas and all', () => {
  it('reads the bare pieces before "label: value" as the start of that label when together they name a field better', () => {
    const fields = [
      field('line', 'text', ['City, town or post office, state, and ZIP code'], 0),
      field('town', 'text', ['Town'], 1),
      field('state', 'text', ['State'], 2),
      field('name', 'text', ['Name'], 3),
      field('married', 'checkbox', ['Married'], 4),
    ];
    const plan = planEdits(
      'City, town or post office, state, and ZIP code: Springfield; married, name: Ada',
      fields,
      words,
    );
    expect(plan.decisions.map((d) => [d.field.id, d.write])).toEqual([
      ['line', { kind: 'text', text: 'Springfield' }],
      ['married', { kind: 'check', on: true }],
      ['name', { kind: 'text', text: 'Ada' }],
    ]);
    expect(plan.unmatched).toEqual([]);
  });
});

describe('a value in the box sized for it', () => {
  it('goes, among fields named nearly as well, to the one holding exactly its characters', () => {
    // A street line whose caption mentions the postal code comes first on the page.
    const fields = [
      field('street', 'text', ['Number and street (or postal code)'], 0),
      field('zip', 'text', ['Postal code'], 1, { maxLength: 5 }),
      field('zip4', 'text', ['Postal code'], 2, { maxLength: 4 }),
    ];
    expect(planEdits('postal code: 62704', fields, words).decisions[0].field.id).toBe('zip');
    expect(planEdits('postal code: 6270', fields, words).decisions[0].field.id).toBe('zip4');
    // A value no box is sized for keeps reading order among the fields it fits.
    expect(planEdits('postal code: SW1A', fields.slice(0, 2), words).decisions[0].field.id).toBe(
      'street',
    );
  });
});

describe('amounts in dollars and cents boxes', () => {
  it('writes the whole part into the field and the cents into the short box right after it', () => {
    const at = (x: number, width: number) => ({ x, y: 349, width, height: 11 });
    const fields = [
      field('dollars', 'text', ['Wages, salaries, tips'], 0, { rect: at(443, 61), page: 1 }),
      field('cents', 'text', ['cents'], 1, { rect: at(508, 20), page: 1, maxLength: 3 }),
    ];
    const plan = planEdits('wages: 52,300.75', fields, words);
    expect(plan.decisions.map((d) => [d.field.id, d.write])).toEqual([
      ['dollars', { kind: 'text', text: '52,300' }],
      ['cents', { kind: 'text', text: '75' }],
    ]);
    // Without a cents box beside it, the amount is written whole.
    const alone = planEdits('wages: 52,300.75', fields.slice(0, 1), words);
    expect(alone.decisions[0].write).toEqual({ kind: 'text', text: '52,300.75' });
  });
});

describe('values and words', () => {
  it('reads yes/no in several languages', () => {
    expect(['yes', 'Ja', 'oui', '✓', 'x'].map(truthOf)).toEqual([true, true, true, true, true]);
    expect(['no', 'nein', 'non', 'nie'].map(truthOf)).toEqual([false, false, false, false]);
    expect(truthOf('blue')).toBeUndefined();
  });

  it('writes dates in the layout a caption shows', () => {
    expect(dateLayoutIn(['Date of birth (MM/DD/YYYY)'])).toBe('mm/dd/yyyy');
    expect(dateLayoutIn(['Geburtsdatum (TT.MM.JJJJ)'])).toBe('dd.mm.yyyy');
    expect(formatDate('2027-03-01', 'mm/dd/yyyy')).toBe('03/01/2027');
    expect(textValue('1 March 2027', { date: 'yyyy-mm-dd' })).toBe('2027-03-01');
    expect(textValue('1234.5', { decimals: 2 })).toBe('1234.50');
  });

  it('drops separators to fit a maximum length, else cuts', () => {
    expect(fitLength('123-45-6789', 9)).toBe('123456789');
    expect(fitLength('Lovelace', 4)).toBe('Love');
  });

  it('chooses the option written as asked, and one whose number agrees, among look-alikes', () => {
    const options = ['combo Line 1', 'combo Line 2', 'combo Line 3'].map((value) => ({
      value,
      labels: [value],
    }));
    const item = (value: string) => ({ index: 0, text: value, label: 'combo', value });
    expect(optionFor(item('Combo line 2'), options, words)?.option.value).toBe('combo Line 2');
    expect(optionFor(item('line 3'), options, words)?.option.value).toBe('combo Line 3');
  });

  it('prefers the label that holds the words and little else', () => {
    expect(lexicalScore('first name', 'Your first name and middle initial')).toBeGreaterThan(
      lexicalScore('first name', "If joint return, spouse's first name and middle initial"),
    );
  });
});
