import { describe, expect, it } from '@jest/globals';
import type { CategoryEvidence } from '../classify/evidence.js';
import { EMBEDDING_SIZE } from '../encoder/use.network.js';
import type { LayoutPage } from '../parse/layout.types.js';
import { boundaryLogOdds, type SegmentPage } from './segments.js';
import { accurateWholeReader, cutWhereWholeReadingsDiffer } from './whole-documents.js';

const none = { semantic: 0, passage: -1, lexical: 0, layout: 0 };
const even: CategoryEvidence[] = [0, 1].map(() => ({ label: none, criteria: [none] }));

function oneHot(index: number): Float32Array {
  const vector = new Float32Array(EMBEDDING_SIZE);
  vector[index] = 1;
  return vector;
}

/** A page whose passages read as `topic` (pages of one topic alike, of two unlike). */
function page(topic: number, supported = true): SegmentPage {
  return {
    sections: even,
    vector: oneHot(topic),
    cues: {
      language: 'en',
      printedNumber: undefined,
      printedTotal: undefined,
      dimensions: undefined,
    },
    namedSection: undefined,
    pageProbabilities: [0.5, 0.5],
    supported,
  };
}

/** A reader answering `answer(start, end)` and counting what it was asked. */
function reader(answer: (start: number, end: number) => number[]) {
  const asked: string[] = [];
  return {
    asked,
    read: (start: number, end: number) => {
      asked.push(`${start}-${end}`);
      return answer(start, end);
    },
  };
}

// Five pages the cut gave one section: three of one topic, then two of another.
const pages = [0, 0, 0, 1, 1].map((topic) => page(topic));
const run = [0, 0, 0, 0, 0];
const sure = (section: number) => (section === 0 ? [0.9, 0.1] : [0.1, 0.9]);

describe("Deep Split's runs read again as whole documents", () => {
  it('reads the sides of a run only where the cues say a document may begin', () => {
    expect(boundaryLogOdds(pages, 3)).toBeGreaterThan(0);
    [1, 2, 4].forEach((i) => expect(boundaryLogOdds(pages, i)).toBeLessThan(0));
    const cut = reader(() => [0.9, 0.1]);
    const whole = reader(() => [0.9, 0.1]);
    expect(cutWhereWholeReadingsDiffer(run, pages, cut.read, whole.read)).toEqual(run);
    expect(cut.asked).toEqual(['0-3', '3-5']);
    expect(whole.asked).toEqual(['0-3', '3-5']);
  });

  it('cuts a run where both sides, read whole by both readings pooled, are different sections', () => {
    const cut = reader((start) => (start < 3 ? [0.8, 0.2] : [0.45, 0.55]));
    const whole = reader((start) => sure(start < 3 ? 0 : 1));
    expect(cutWhereWholeReadingsDiffer(run, pages, cut.read, whole.read)).toEqual([0, 0, 0, 1, 1]);
  });

  it("lets the classifier add to the cut's reading, not overturn what that reading is sure of", () => {
    // The cut's reading is sure both sides are section 0; the classifier reads the second as 1.
    const cut = reader(() => [0.95, 0.05]);
    const whole = reader((start) => sure(start < 3 ? 0 : 1));
    expect(cutWhereWholeReadingsDiffer(run, pages, cut.read, whole.read)).toEqual(run);
    // At a share above the cut's own, the classifier alone would decide.
    expect(cutWhereWholeReadingsDiffer(run, pages, cut.read, whole.read, 2)).toEqual([
      0, 0, 0, 1, 1,
    ]);
  });

  it('never reads a place where a page without evidence and without cues would start a document', () => {
    const quiet = pages.map((p, i) => (i === 3 ? { ...p, supported: false } : p));
    const whole = reader((start) => sure(start < 3 ? 0 : 1));
    expect(cutWhereWholeReadingsDiffer(run, quiet, whole.read, whole.read)).toEqual(run);
    expect(whole.asked).toEqual([]);
  });

  it('reads each run of its own, the runs the cut gave other sections unchanged', () => {
    const twoRuns = [...run, 1, 1];
    const seven = [...pages, page(0), page(0)];
    const cut = reader((start) => (start < 3 ? [0.8, 0.2] : [0.45, 0.55]));
    const whole = reader((start) => sure(start < 3 ? 0 : 1));
    expect(cutWhereWholeReadingsDiffer(twoRuns, seven, cut.read, whole.read)).toEqual([
      0, 0, 0, 1, 1, 1, 1,
    ]);
    expect(whole.asked).not.toContain('5-7');
  });
});

describe("the accurate classifier's reading of pages as one document", () => {
  const layoutPage = (pageNumber: number, text: string): LayoutPage => ({
    pageNumber,
    source: 'text-layer',
    lines: [
      {
        text,
        bbox: { page: pageNumber, left: 0, top: 0, width: 1, height: 0.02 },
        size: 0.02,
        segments: [],
        words: [],
      },
    ],
    synthetic: false,
    dimensions: { width: 595, height: 842 },
  });
  const sections = [
    { name: 'recipe', description: 'Ingredients and the steps to cook a dish' },
    { name: 'statute', description: 'Articles of an association: members, board and votes' },
  ];
  const pagesRead = [
    layoutPage(1, 'Ingredients: 200 g flour, two eggs, a pinch of salt. Whisk the eggs.'),
    layoutPage(2, 'Bake for twenty minutes in a hot oven, then serve the cake warm.'),
    layoutPage(3, 'Article 1. The association elects its board. Members vote at the meeting.'),
  ];

  it("gives each section the classifier's confidence, in the sections' order", () => {
    const read = accurateWholeReader(pagesRead, sections);
    const recipe = read(0, 2);
    expect(recipe).toHaveLength(2);
    expect(recipe[0]).toBeGreaterThan(recipe[1]);
    const statute = read(2, 3);
    expect(statute[1]).toBeGreaterThan(statute[0]);
    // The same pages asked again are the same answer, read once.
    expect(read(0, 2)).toBe(recipe);
  });
});
