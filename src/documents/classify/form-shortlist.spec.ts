import { describe, expect, it } from '@jest/globals';
import type { CategoryEvidence, CriterionEvidence } from './evidence.js';
import { FORM_SHORTLIST, layoutWithinContent } from './form-shortlist.js';
import { categoryScore, FUSION } from './fusion.js';
import { schemaEvidence } from './classify.js';

const statement = (semantic: number, layout: number): CriterionEvidence => ({
  semantic,
  passage: 0,
  lexical: 0,
  layout,
  opening: 0,
});
/** A category whose name and two criteria all read `semantic` and `layout`. */
const category = (semantic: number, layout: number): CategoryEvidence => ({
  label: statement(semantic, layout),
  criteria: [statement(semantic, layout), statement(semantic, layout)],
});
const layoutPart = (evidence: CategoryEvidence) =>
  categoryScore(evidence) -
  categoryScore({
    label: { ...evidence.label, layout: 0 },
    criteria: evidence.criteria.map((entry) => ({ ...entry, layout: 0 })),
  });

describe('layout evidence of an unpaged document within its content shortlist', () => {
  it('keeps a category far behind in content from winning on its layout alone', () => {
    // The words read as the first category; the second's criteria are about form.
    const evidence = [category(0.4, 0.1), category(0.3, 0.4)];
    expect(categoryScore(evidence[1])).toBeGreaterThan(categoryScore(evidence[0]));
    const capped = layoutWithinContent(evidence);
    expect(capped[0]).toEqual(evidence[0]);
    expect(layoutPart(capped[1])).toBeCloseTo(layoutPart(evidence[0]), 10);
    expect(categoryScore(capped[0])).toBeGreaterThan(categoryScore(capped[1]));
  });

  it('lets layout decide between categories the content leaves close', () => {
    const evidence = [category(0.4, 0.1), category(0.4 - FORM_SHORTLIST / 4, 0.4)];
    expect(layoutWithinContent(evidence)).toEqual(evidence);
  });

  it('never raises a layout part, nor lowers one below the close categories’ lowest', () => {
    const evidence = [
      category(0.4, 0.3),
      category(0.39, 0.2),
      category(0.2, 0.1),
      category(0.2, 0.5),
    ];
    const capped = layoutWithinContent(evidence, 0.02);
    const before = evidence.map(layoutPart);
    const after = capped.map(layoutPart);
    after.forEach((part, c) => expect(part).toBeLessThanOrEqual(before[c] + 1e-12));
    expect(after[2]).toBeCloseTo(before[2], 10);
    expect(after[3]).toBeCloseTo(Math.min(before[0], before[1]), 10);
    expect(FUSION.criterion.layout).toBeGreaterThan(0);
  });
});

describe('which documents read their layout within the content shortlist', () => {
  // A recipe, and a category described only by its form.
  const schema = [
    {
      category: 'recipe',
      criteria: ['a list of ingredients with quantities', 'steps for cooking a dish in an oven'],
    },
    {
      category: 'slide_deck',
      criteria: ['one idea per page', 'a single page with very few words on it'],
    },
  ];
  const text =
    'Lemon cake\nIngredients: 200 g flour, 150 g sugar, 3 eggs, the juice of two lemons.\n' +
    'Beat the eggs with the sugar, fold in the flour and the juice, and bake for 40 minutes ' +
    'in an oven heated to 180 degrees until the cake is golden.';
  const partsOf = (evidence: CategoryEvidence[]) =>
    evidence.map((category) => {
      const total = categoryScore(category);
      const withoutLayout = categoryScore({
        label: { ...category.label, layout: 0 },
        criteria: category.criteria.map((entry) => ({ ...entry, layout: 0 })),
      });
      return { content: withoutLayout, layout: total - withoutLayout };
    });

  it('caps the form of a file whose pages the reader does not know, not of a PDF page', () => {
    const unpaged = partsOf(
      schemaEvidence({ pages: [text], classificationSchema: schema }).evidence,
    );
    expect(unpaged[0].content - unpaged[1].content).toBeGreaterThan(FORM_SHORTLIST);
    expect(unpaged[1].layout).toBeLessThanOrEqual(unpaged[0].layout + 1e-9);
    const page = { text, size: { width: 595, height: 842, unit: 'pt' as const } };
    const paged = partsOf(schemaEvidence({ pages: [page], classificationSchema: schema }).evidence);
    expect(paged[0].content - paged[1].content).toBeGreaterThan(FORM_SHORTLIST);
    expect(paged[1].layout).toBeGreaterThan(paged[0].layout);
  });
});
