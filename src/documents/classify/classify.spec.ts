import { describe, expect, it } from '@jest/globals';
import { classify, groupOf } from './classify.js';
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
    expect(invoice).toEqual({
      category: 'invoice',
      confidence: 1,
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

  it('rates a clear winner at the share of its criteria rated high, no category above its share', () => {
    for (const model of ['default', 'accurate'] as const) {
      const output = classify({
        pages: ['Patient: Jane Roe. Diagnosis: influenza.'],
        classificationSchema: schema,
        model,
      });
      expect(output.result.category).toBe('medical_record');
      for (const category of output.response_confidence.categories) {
        const high = category.criteria_confidence.filter((c) => c.confidence === 'high').length;
        const share = high / category.criteria_confidence.length;
        if (category.category === 'medical_record') {
          expect(category.confidence).toBeCloseTo(share, 4);
        } else {
          expect(category.confidence).toBeLessThanOrEqual(share);
        }
      }
    }
  });

  it('says so when two categories tie: half the share at most, and low when nothing matches', () => {
    const tie: ClassificationCategory[] = [
      { category: 'alpha', criteria: ['zebra', 'giraffe'] },
      { category: 'beta', criteria: ['zebra', 'giraffe'] },
    ];
    for (const model of ['default', 'accurate'] as const) {
      const matched = classify({ pages: ['zebra and giraffe'], classificationSchema: tie, model });
      for (const category of matched.response_confidence.categories) {
        expect(category.criteria_confidence.every((c) => c.confidence === 'high')).toBe(true);
        expect(category.confidence).toBeLessThanOrEqual(0.5);
      }
      const nothing = classify({ pages: ['nothing relevant'], classificationSchema: tie, model });
      for (const category of nothing.response_confidence.categories) {
        expect(category.confidence).toBe(0);
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

  it('rates a category without criteria at confidence 0', () => {
    const output = classify({
      pages: ['hello'],
      classificationSchema: [{ category: 'other', criteria: [] }],
    });
    expect(output.result.category).toBe('other');
    expect(output.response_confidence.categories[0]).toEqual({
      category: 'other',
      confidence: 0,
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
    // wink's stop-word list has "amount" and "due": the criterion used to compile to no
    // evidence at all and was rated low whatever the document said.
    const shortSchema: ClassificationCategory[] = [
      { category: 'invoice', criteria: ['invoice number', 'amount due', 'bill to'] },
      { category: 'resume', criteria: ['work experience', 'education', 'skills'] },
    ];
    const texts = [
      'INVOICE\nInvoice number 42\nBill to: ACME\nAmount due: 100 EUR',
      'Invoice number 7, amount due 10',
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
      const unrelated = classify({
        pages: ['Work experience: 5 years. Education: MSc.'],
        classificationSchema: shortSchema,
        model,
      }).response_confidence.categories[0];
      expect(unrelated.criteria_confidence[1].confidence).toBe('low');
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

describe('accurate model', () => {
  const receipt =
    'PAYMENT RECEIPT\nThis is not an invoice. No payment is due.\n' +
    'Received from Harbor Logistics on April 1. Amount paid by card: 1,200.00 for invoice ' +
    'number 4411. Thank you.';

  it('does not count a denied category as evidence for it', () => {
    expect(
      classify({ pages: [receipt], classificationSchema: schema, model: 'accurate' }).result
        .category,
    ).toBe('receipt');
  });

  it('matches criteria through WordNet synonyms', () => {
    const criterion = (model: 'default' | 'accurate') =>
      classify({
        pages: ['Seen by the doctor today; the patient is improving.'],
        classificationSchema: [{ category: 'medical', criteria: ['physician', 'patient'] }],
        model,
      }).response_confidence.categories[0].criteria_confidence[0].confidence;
    expect(criterion('default')).toBe('low');
    expect(criterion('accurate')).toBe('high');
  });

  it('lets the best page speak even when other pages are about something else', () => {
    const pages = [
      invoiceText,
      ...Array.from(
        { length: 4 },
        () => 'Patient history, diagnosis and medications are kept on file by the physician.',
      ),
    ];
    expect(
      classify({ pages, classificationSchema: schema, model: 'accurate' }).result.category,
    ).toBe('invoice');
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
