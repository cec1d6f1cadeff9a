import { describe, expect, it } from '@jest/globals';
import { classify, schemaEvidence } from './classify.js';
import { wholePages } from './evidence.js';
import { groupOf } from './grouping.js';
import { categoryConfidences, chooseCategory } from './confidence.js';
import { CALIBRATION, winnerConfidence } from './fusion.js';
import type { ClassificationCategory } from './classify.types.js';

const schema: ClassificationCategory[] = [
  {
    category: 'invoice',
    criteria: ['invoice number', 'total amount due', 'payment terms and due date'],
  },
  {
    category: 'receipt',
    criteria: ['store name and purchase date', 'amount paid by card or cash', 'thank you'],
  },
  {
    category: 'medical_record',
    criteria: ['patient name', 'diagnosis', 'physician notes', 'medications'],
  },
];

const invoiceText =
  'INVOICE\nInvoice number: 4411\nTotal amount due: $500.00\nPayment terms: net 30, due date May 1.';

describe('classify', () => {
  it('returns the DESIGN.md result shape', () => {
    const output = classify({ pages: [invoiceText], classificationSchema: schema });
    expect(Object.keys(output).sort()).toEqual(['response_confidence', 'result', 'usage']);
    expect(output.result).toEqual({ category: 'invoice' });
    expect(output.usage).toEqual({ num_pages: 1, num_categories: 3 });
    const invoice = output.response_confidence.categories[0];
    // Clear evidence: the softmax gives the invoice all of it, the calibration's uniform share
    // and the winner's recalibration (fusion.ts) keep what such evidence is worth below
    // certainty.
    const softmaxCap = 1 - CALIBRATION.uniformShare + CALIBRATION.uniformShare / schema.length;
    const clearest = winnerConfidence(softmaxCap, 1 / schema.length);
    expect(clearest).toBeLessThan(1);
    expect(invoice.confidence).toBeCloseTo(clearest, 3);
    expect(invoice).toEqual({
      category: 'invoice',
      confidence: invoice.confidence,
      criteria_confidence: [
        { criterion: 'invoice number', confidence: 'high' },
        { criterion: 'total amount due', confidence: 'high' },
        { criterion: 'payment terms and due date', confidence: 'high' },
      ],
    });
    expect(output.response_confidence.categories.map((c) => c.category)).toEqual([
      'invoice',
      'receipt',
      'medical_record',
    ]);
  });

  it('gives each category the probability of being the right one: they sum to 1', () => {
    for (const model of ['default', 'accurate'] as const) {
      const output = classify({
        pages: ['Patient: Jane Roe. Diagnosis: influenza. Medications: rest and fluids.'],
        classificationSchema: schema,
        model,
      });
      expect(output.result.category).toBe('medical_record');
      const confidences = output.response_confidence.categories.map((c) => c.confidence);
      expect(confidences.reduce((sum, value) => sum + value, 0)).toBeCloseTo(1, 3);
      expect(confidences[2]).toBe(Math.max(...confidences));
      expect(confidences[2]).toBeGreaterThan(0.5);
    }
  });

  it('says so when two categories tie: equal confidence, half each at most', () => {
    const tied = [
      { score: 0.4, criteria: [0.5, 0.2] },
      { score: 0.4, criteria: [0.5, 0.2] },
      { score: 0.1, criteria: [0.1, 0.1] },
    ];
    const [alpha, beta, gamma] = categoryConfidences(tied);
    expect(alpha).toBe(beta);
    expect(alpha).toBeLessThanOrEqual(0.5);
    expect(gamma).toBeLessThan(alpha);
    // The name decides only when the content cannot: the same answer in any schema order.
    expect(chooseCategory(tied, ['b', 'a', 'c'])).toBe(1);
    expect(chooseCategory([tied[1], tied[0], tied[2]], ['a', 'b', 'c'])).toBe(0);
  });

  it('recalibrates the winner: a near tie of two stays near one half, the order is kept', () => {
    const [first, second] = categoryConfidences([
      { score: 0.401, criteria: [0.4] },
      { score: 0.4, criteria: [0.4] },
    ]);
    expect(first).toBeGreaterThan(second);
    expect(first).toBeLessThan(0.6);
    expect(first + second).toBeCloseTo(1, 3);
    const spread = [0.9, 0.62, 0.6, 0.3, 0.1, 0.05].map((score) => ({ score, criteria: [score] }));
    const confidences = categoryConfidences(spread);
    expect([...confidences].sort((a, b) => b - a)).toEqual(confidences);
    expect(confidences.reduce((sum, value) => sum + value, 0)).toBeCloseTo(1, 3);
  });

  it('rates criteria low when nothing in the document speaks of them', () => {
    for (const model of ['default', 'accurate'] as const) {
      const nothing = classify({
        pages: ['Quarterly tax'],
        classificationSchema: [
          { category: 'alpha', criteria: ['zebra', 'giraffe'] },
          { category: 'beta', criteria: ['volcano', 'glacier'] },
        ],
        model,
      });
      for (const category of nothing.response_confidence.categories) {
        expect(category.criteria_confidence.every((c) => c.confidence === 'low')).toBe(true);
      }
    }
  });

  it('accepts page objects and counts pages', () => {
    const output = classify({
      pages: [
        { pageNumber: 3, text: invoiceText },
        { pageNumber: 4, text: 'Terms apply.' },
      ],
      classificationSchema: schema,
      model: 'accurate',
    });
    expect(output.result.category).toBe('invoice');
    expect(output.usage.num_pages).toBe(2);
  });

  it('returns a null category for an empty schema', () => {
    const output = classify({ pages: ['anything'], classificationSchema: [] });
    expect(output).toEqual({
      result: { category: null },
      response_confidence: { categories: [] },
      usage: { num_pages: 1, num_categories: 0 },
    });
  });

  it('chooses the only category, without criteria, with certainty', () => {
    const output = classify({
      pages: ['hello'],
      classificationSchema: [{ category: 'other', criteria: [] }],
    });
    expect(output.result.category).toBe('other');
    expect(output.response_confidence.categories[0]).toEqual({
      category: 'other',
      confidence: 1,
      criteria_confidence: [],
    });
  });

  it('adds extra_metadata.grouping only when category_groups is given', () => {
    const groups = { finance: ['invoice', 'receipt'], health: ['medical_record'] };
    const grouped = classify({
      pages: [invoiceText],
      classificationSchema: schema,
      categoryGroups: groups,
    });
    expect(grouped.extra_metadata).toEqual({ grouping: 'finance' });
    const ungrouped = classify({
      pages: [invoiceText],
      classificationSchema: schema,
      categoryGroups: { health: ['medical_record'] },
    });
    expect(ungrouped.extra_metadata).toEqual({ grouping: 'ungrouped' });
    expect(classify({ pages: [invoiceText], classificationSchema: schema }).extra_metadata).toBe(
      undefined,
    );
  });

  it('takes document_metadata into account', () => {
    for (const model of ['default', 'accurate'] as const) {
      const pages = ['Reference 2291. Amount 45.00.'];
      const withReceipt = classify({
        pages,
        classificationSchema: schema,
        documentMetadata: 'Store receipt, paid by card, thank you note',
        model,
      });
      const withInvoice = classify({
        pages,
        classificationSchema: schema,
        documentMetadata: 'Supplier invoice with payment terms, due date next month',
        model,
      });
      expect(withReceipt.result.category).toBe('receipt');
      expect(withInvoice.result.category).toBe('invoice');
    }
  });

  it('rates "amount due" high on a short invoice that contains it (both models)', () => {
    const shortSchema: ClassificationCategory[] = [
      { category: 'invoice', criteria: ['invoice number', 'amount due', 'bill to'] },
      { category: 'resume', criteria: ['work experience', 'education', 'skills'] },
    ];
    const texts = [
      'INVOICE\nInvoice number 42\nBill to: ACME\nAmount due: 100 EUR',
      'Amount Due: $12.00',
    ];
    for (const model of ['default', 'accurate'] as const) {
      for (const text of texts) {
        const invoice = classify({ pages: [text], classificationSchema: shortSchema, model })
          .response_confidence.categories[0];
        expect({ model, text, amountDue: invoice.criteria_confidence[1].confidence }).toEqual({
          model,
          text,
          amountDue: 'high',
        });
      }
    }
  });

  it('rates a criterion made only of stop-listed words by those words', () => {
    const output = classify({
      pages: ['Applicant: first name Jane, last name Roe.'],
      classificationSchema: [
        { category: 'form', criteria: ['first name and last name'] },
        { category: 'other', criteria: ['zebra'] },
      ],
    });
    expect(output.response_confidence.categories[0].criteria_confidence[0].confidence).toBe('high');
    expect(output.result.category).toBe('form');
  });

  it('is deterministic', () => {
    const input = { pages: [invoiceText, 'Patient notes'], classificationSchema: schema };
    expect(classify({ ...input, model: 'accurate' })).toEqual(
      classify({ ...input, model: 'accurate' }),
    );
    expect(classify(input)).toEqual(classify(input));
  });

  it('never lets the order of the schema decide', () => {
    const pages = ['Invoice number 7. Amount paid by card. Thank you. Patient notes.'];
    for (const model of ['default', 'accurate'] as const) {
      const forward = classify({ pages, classificationSchema: schema, model });
      const backward = classify({ pages, classificationSchema: [...schema].reverse(), model });
      expect(backward.result.category).toBe(forward.result.category);
      const tie = [
        { category: 'b', criteria: ['zebra'] },
        { category: 'a', criteria: ['giraffe'] },
      ];
      const one = classify({ pages: ['nothing relevant here'], classificationSchema: tie, model });
      const two = classify({
        pages: ['nothing relevant here'],
        classificationSchema: [...tie].reverse(),
        model,
      });
      expect(one.result.category).toBe(two.result.category);
    }
  });
});

describe('evidence in general words', () => {
  it('matches a criterion to a paraphrase in another language (sentence encoder)', () => {
    for (const model of ['default', 'accurate'] as const) {
      const output = classify({
        pages: ['Der Arzt hat den Patienten heute untersucht; es geht ihm besser.'],
        classificationSchema: [
          { category: 'medical', criteria: ['a physician examined the patient'] },
          { category: 'recipe', criteria: ['ingredients and cooking steps'] },
        ],
        model,
      });
      expect(output.result.category).toBe('medical');
      expect(output.response_confidence.categories[0].criteria_confidence[0].confidence).toBe(
        'high',
      );
    }
  });

  it('matches a criterion about form to the form of the document (layout description)', () => {
    const slides = Array.from({ length: 12 }, (_, i) => `Topic ${i + 1}\n- point one\n- point two`);
    const prose = Array.from({ length: 2 }, () =>
      'This chapter explains in full sentences how the system was designed, why each part was built as it was, and what was learned from building it over several years of work.'.repeat(
        4,
      ),
    );
    const formSchema: ClassificationCategory[] = [
      { category: 'kind_1', criteria: ['many pages with very few words and short bulleted lines'] },
      { category: 'kind_2', criteria: ['long paragraphs of dense running text'] },
    ];
    for (const model of ['default', 'accurate'] as const) {
      expect(
        classify({ pages: slides, classificationSchema: formSchema, model }).result.category,
      ).toBe('kind_1');
      expect(
        classify({ pages: prose, classificationSchema: formSchema, model }).result.category,
      ).toBe('kind_2');
    }
  });

  it('reads each page of a document of two pages or more whole, a one-page document not', () => {
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    expect(wholePages(['Only page, read by its passages.'])).toEqual([]);
    const pages = wholePages([
      long,
      '12 345 %',
      'Second page\nwith   lines',
      ...Array(20).fill('x'),
    ]);
    expect(pages[0].text.split(' ')).toHaveLength(90);
    expect(pages[0].page).toBe(0);
    expect(pages[1]).toEqual({ text: 'Second page with lines', page: 2 });
    expect(Math.max(...pages.map((p) => p.page))).toBe(15);
  });

  it("gives Deep Classify's categories shares of the whole pages' votes, summing to 1", () => {
    const input = { pages: [invoiceText, 'Terms and conditions apply to every order placed.'] };
    const deep = schemaEvidence({ ...input, classificationSchema: schema, model: 'accurate' });
    const shares = deep.evidence.map((category) => category.pageVotes ?? 0);
    expect(shares.reduce((sum, share) => sum + share, 0)).toBeCloseTo(1, 6);
    expect(shares[0]).toBeGreaterThan(shares[2]);
    const single = schemaEvidence({
      pages: [invoiceText],
      classificationSchema: schema,
      model: 'accurate',
    });
    expect(single.evidence.every((category) => category.pageVotes === undefined)).toBe(true);
    const fast = schemaEvidence({ ...input, classificationSchema: schema, model: 'default' });
    expect(fast.evidence.every((category) => category.pageVotes === undefined)).toBe(true);
  });

  it('lets the best page speak even when other pages are about something else', () => {
    const pages = [
      invoiceText,
      ...Array.from({ length: 4 }, () => 'Terms and conditions apply to every order placed.'),
    ];
    expect(
      classify({ pages, classificationSchema: schema, model: 'accurate' }).result.category,
    ).toBe('invoice');
  });
});

describe('a document with no text', () => {
  const portrait = { width: 595, height: 842, unit: 'pt' as const };
  const formSchema: ClassificationCategory[] = [
    { category: 'poster', criteria: ['a single large page'] },
    { category: 'slides', criteria: ['many landscape pages with few words'] },
    { category: 'letter', criteria: ['one portrait page of running text'] },
  ];

  it.each(['default', 'accurate'] as const)(
    'gives every category chance, whatever the criteria say of form (%s)',
    (model) => {
      for (const classificationSchema of [schema, formSchema]) {
        for (const pages of [[{ text: '', size: portrait }], ['', ' \n ', '']]) {
          const output = classify({ pages, classificationSchema, model });
          const chance = Math.round(10_000 / classificationSchema.length) / 10_000;
          for (const category of output.response_confidence.categories)
            expect(category.confidence).toBe(chance);
          expect(output.result.category).not.toBeNull();
        }
      }
    },
  );

  it('reads document_metadata as text: its evidence still decides', () => {
    const output = classify({
      pages: [''],
      classificationSchema: schema,
      documentMetadata: invoiceText,
    });
    expect(output.result.category).toBe('invoice');
    expect(output.response_confidence.categories[0].confidence).toBeGreaterThan(0.5);
  });
});

describe('groupOf', () => {
  it('returns the first group listing the category, else ungrouped', () => {
    const groups = { a: ['x'], b: ['x', 'y'] };
    expect(groupOf('x', groups)).toBe('a');
    expect(groupOf('y', groups)).toBe('b');
    expect(groupOf('z', groups)).toBe('ungrouped');
    expect(groupOf(null, groups)).toBe('ungrouped');
  });
});
