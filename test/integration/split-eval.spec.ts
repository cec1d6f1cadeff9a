import { afterAll, describe, expect, it } from '@jest/globals';
import { terminateOcr } from '../../src/documents/readers/ocr.engine.js';
import { loadLayoutDocuments } from '../../src/documents/parse/layout.loader.js';
import { pageText } from '../../src/documents/parse/layout.types.js';
import { splitDocument } from '../../src/documents/split/split.operation.js';
import { makePdf } from '../support/documents.js';
import {
  assignedPages,
  concatenatePdfs,
  expectedSections,
  generateBundles,
  joinLayouts,
  pagesRight,
  planBundles,
  printTextPdf,
  sectionsFor,
  wordOverlapSplit,
} from '../support/split-eval.js';

// Pages with little text are read by OCR, whose worker thread outlives this file unless it
// is stopped: in one process (`--runInBand`) jest would not exit.
afterAll(async () => {
  await terminateOcr();
});

const schema = [
  {
    category: 'recipe',
    criteria: ['ingredients with quantities', 'oven temperature and baking time'],
  },
  {
    category: 'meeting_minutes',
    criteria: ['attendees of the meeting', 'decisions and action items'],
  },
];

describe('split evaluation: bundles', () => {
  it('plans bundles of distinct categories in a fixed order, each document used once', () => {
    const entries = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id, i) => ({
      id,
      category: ['x', 'y', 'z'][i % 3],
    }));
    const first = planBundles(entries, 3, 5, 'seed');
    expect(planBundles([...entries].reverse(), 3, 5, 'seed')).toEqual(first);
    expect(first).toHaveLength(2); // 7 documents: x x x, y y, z z -> two complete bundles
    for (const bundle of first) {
      expect(new Set(bundle.members.map((m) => m.category)).size).toBe(3);
    }
    const used = first.flatMap((b) => b.members.map((m) => m.id));
    expect(new Set(used).size).toBe(used.length);
  });

  it('generates bundles of 2-6 documents fixed by the seed, same-category neighbours only by chance', () => {
    const entries = Array.from({ length: 30 }, (_, i) => ({
      id: `d${i}`,
      category: `c${i % 6}`,
    }));
    const options = { minSize: 2, maxSize: 6, sameCategory: 0 };
    const bundles = generateBundles(entries, 200, 'seed', options);
    expect(generateBundles(entries, 200, 'seed', options)).toEqual(bundles);
    expect(generateBundles(entries, 200, 'other', options)).not.toEqual(bundles);
    const sizes = new Set(bundles.map((b) => b.members.length));
    expect([...sizes].sort()).toEqual([2, 3, 4, 5, 6]);
    const adjacentSame = (bundle: { members: { category: string }[] }) =>
      bundle.members.some((m, i) => i > 0 && bundle.members[i - 1].category === m.category);
    for (const bundle of bundles) {
      expect(new Set(bundle.members.map((m) => m.id)).size).toBe(bundle.members.length);
      expect(adjacentSame(bundle)).toBe(false);
    }
    const often = generateBundles(entries, 200, 'seed', { ...options, sameCategory: 0.3 });
    const share = often.filter(adjacentSame).length / often.length;
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.95);
  });

  it('joins documents read alone into one bundle with pages numbered on', async () => {
    const first = await loadLayoutDocuments([
      { bytes: await makePdf(['one', 'two']), name: 'a.pdf' },
    ]);
    const second = await loadLayoutDocuments([{ bytes: await makePdf(['three']), name: 'b.pdf' }]);
    const joined = joinLayouts([first, second]);
    expect(joined.totalPages).toBe(3);
    expect(joined.pages.map((p) => p.pageNumber)).toEqual([1, 2, 3]);
    expect(pageText(joined.pages[2])).toContain('three');
    expect(joined.pages[2].lines[0].bbox.page).toBe(3);
  });

  it('counts a page right only when it is in its own section and in no other', () => {
    const truth = expectedSections([
      { id: 'r', category: 'recipe', pages: 2 },
      { id: 'm', category: 'meeting_minutes', pages: 1 },
    ]);
    expect([...truth]).toEqual([
      [1, 'recipe'],
      [2, 'recipe'],
      [3, 'meeting_minutes'],
    ]);
    const assigned = new Map([
      ['recipe', [1, 2]],
      ['meeting minutes', [2, 3]],
    ]);
    expect(pagesRight(truth, assigned)).toEqual({ right: 2, total: 3 });
    expect(pagesRight(truth, new Map())).toEqual({ right: 0, total: 3 });
  });

  it('prints text onto pages, refuses text the font cannot print, and bundles PDFs in order', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `Zeile ${i} mit Umlauten äöü ß`).join('\n');
    const printed = await printTextPdf(long, 3);
    expect(printed).toBeDefined();
    expect(await printTextPdf('会議の議事録', 3)).toBeUndefined();
    const other = await makePdf(['Minutes of the meeting. Attendees: Ana, Ben.']);
    const bundle = await concatenatePdfs([printed as Uint8Array, other]);
    const read = await loadLayoutDocuments([{ bytes: bundle, name: 'bundle.pdf' }]);
    expect(read.pages).toHaveLength(4); // 200 lines at 52 a page: capped at 3, then 1
    expect(pageText(read.pages[0])).toContain('Zeile 0 mit Umlauten äöü ß');
    expect(pageText(read.pages[3])).toContain('Attendees');
  });

  it('scores the service split and the word-overlap baseline on a generated bundle', async () => {
    const pdf = await makePdf([
      'Pancakes. Ingredients: 200 g flour, 2 eggs, 300 ml milk. Oven temperature 180 C, baking time 20 minutes.',
      'Minutes of the board meeting. Attendees: Ana, Ben, Chris. Decisions: budget approved. Action items: Ben sends the report.',
    ]);
    const document = await loadLayoutDocuments([{ bytes: pdf, name: 'bundle.pdf' }]);
    const truth = expectedSections([
      { id: 'r', category: 'recipe', pages: 1 },
      { id: 'm', category: 'meeting_minutes', pages: 1 },
    ]);
    const sections = sectionsFor(['recipe', 'meeting_minutes'], schema);
    expect(sections.map((s) => s.name)).toEqual(['recipe', 'meeting minutes']);
    const baseline = wordOverlapSplit(document.pages.map(pageText), sections);
    expect(pagesRight(truth, baseline)).toEqual({ right: 2, total: 2 });
    const split = pagesRight(truth, assignedPages(splitDocument(document, sections)));
    expect(split.total).toBe(2);
    expect(split.right).toBe(2);
  });
});
