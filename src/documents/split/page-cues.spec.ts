import { describe, expect, it } from '@jest/globals';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { CategoryEvidence } from '../classify/evidence.js';
import { loadLayoutDocuments } from '../parse/layout.loader.js';
import type { LayoutPage } from '../parse/layout.types.js';
import {
  formatChanges,
  pageBodySize,
  printedNumbering,
  readPageCues,
  typeSizeChanges,
  type PageCues,
} from './page-cues.js';
import { boundaryCost, SEGMENT_COSTS, type SegmentPage } from './segments.js';

function layoutPage(lines: string[], dimensions?: { width: number; height: number }): LayoutPage {
  return {
    pageNumber: 1,
    source: 'text-layer',
    synthetic: false,
    dimensions,
    lines: lines.map((text, index) => ({
      text,
      bbox: { left: 0.1, top: 0.05 * (index + 1), width: 0.5, height: 0.02, page: 1 },
      size: 0.02,
      segments: [],
      words: [],
    })),
  };
}

const none = { semantic: 0, passage: -1, lexical: 0, layout: 0 };
const even: CategoryEvidence[] = [0, 1].map(() => ({ label: none, criteria: [none] }));

function segmentPage(cues: Partial<PageCues>, supported = true): SegmentPage {
  return {
    sections: even,
    vector: null,
    cues: {
      language: undefined,
      printedNumber: undefined,
      printedTotal: undefined,
      dimensions: undefined,
      ...cues,
    },
    namedSection: undefined,
    pageProbabilities: [0.5, 0.5],
    supported,
  };
}

describe('page cues', () => {
  it('reads a printed page number and the count printed with it, in any wording', () => {
    expect(printedNumbering('Body text\n3 / 12')).toEqual({ number: 3, total: 12 });
    expect(printedNumbering('Seite 4 von 9\nBody text')).toEqual({ number: 4, total: 9 });
    expect(printedNumbering('Body text\nPágina 2 de 5')).toEqual({ number: 2, total: 5 });
    expect(printedNumbering('Body text\n- 7 -')).toEqual({ number: 7 });
    // A number larger than its "count" is not a count of pages (a date, a reference).
    expect(printedNumbering('Body text\n12 / 3')).toEqual({ number: 12 });
    expect(printedNumbering('A sentence of running text ends here.')).toEqual({});
  });

  it('reads the printed count of a page from its last or first lines', () => {
    const cues = readPageCues(layoutPage(['ACME Annual Report 2024', 'body', 'Page 3 of 10']));
    expect(cues).toMatchObject({ printedNumber: 3, printedTotal: 10 });
    expect(readPageCues(layoutPage(['Seite 2', 'Text']))).toMatchObject({ printedNumber: 2 });
  });

  it('tells a change of page format: another size or orientation, not a few points', () => {
    const cues = (width: number, height: number) =>
      readPageCues(layoutPage(['text'], { width, height }));
    const a4 = cues(595, 842);
    expect(formatChanges(a4, cues(842, 595))).toBe(true);
    expect(formatChanges(a4, cues(612, 792))).toBe(true);
    expect(formatChanges(a4, cues(596, 841))).toBe(false);
    expect(formatChanges(a4, readPageCues(layoutPage(['text'])))).toBe(false);
  });

  it('tells a new body type size that neither of the two pages before has', () => {
    expect(pageBodySize(layoutPage(['a title', 'a line']))).toBeUndefined();
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i}`);
    expect(pageBodySize(layoutPage(lines))).toBeCloseTo(0.02);
    const sized = (bodySize: number | undefined) => ({ ...segmentPage({ bodySize }).cues });
    expect(typeSizeChanges([sized(0.012), sized(0.012), sized(0.02)], 2)).toBe(true);
    // A page set otherwise alone (a table) and the type of two pages before come back: no change.
    expect(typeSizeChanges([sized(0.012), sized(0.02), sized(0.012)], 2)).toBe(false);
    expect(typeSizeChanges([sized(0.012), sized(0.0121)], 1)).toBe(false);
    expect(typeSizeChanges([sized(0.012), sized(undefined)], 1)).toBe(false);
  });

  it('reads the size of each PDF page as displayed', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (const size of [
      [595, 842],
      [842, 595],
    ] as const) {
      pdf.addPage([...size]).drawText('A page of a document', { x: 50, y: 300, size: 12, font });
    }
    const document = await loadLayoutDocuments([{ bytes: await pdf.save(), name: 'two.pdf' }]);
    expect(document.pages.map((page) => page.dimensions)).toEqual([
      { width: 595, height: 842 },
      { width: 842, height: 595 },
    ]);
  });

  it('makes a new document cheaper where the format changes or the count starts again', () => {
    const costs = { ...SEGMENT_COSTS, boundaryWeight: 0, pooledWeight: 0, formatChange: 0.25 };
    const portrait = { dimensions: { width: 595, height: 842 } };
    const landscape = { dimensions: { width: 842, height: 595 } };
    const same = boundaryCost([segmentPage(portrait), segmentPage(portrait)], 1, costs);
    expect(boundaryCost([segmentPage(portrait), segmentPage(landscape)], 1, costs)).toBeCloseTo(
      same * 0.25,
    );
    // The last page of a printed count ends its document; another count starts one.
    const ended = [
      segmentPage({ printedNumber: 4, printedTotal: 4 }),
      segmentPage({ printedNumber: 2 }),
    ];
    expect(boundaryCost(ended, 1, costs)).toBeCloseTo(same * 0.25);
    const recount = [
      segmentPage({ printedNumber: 2, printedTotal: 5 }),
      segmentPage({ printedNumber: 3, printedTotal: 8 }),
    ];
    expect(boundaryCost(recount, 1, costs)).toBeCloseTo(same * 0.25);
    // A page without evidence of its own starts a document only on such a cue.
    expect(boundaryCost([segmentPage(portrait), segmentPage(portrait, false)], 1, costs)).toBe(
      Infinity,
    );
    expect(
      boundaryCost([segmentPage(portrait), segmentPage(landscape, false)], 1, costs),
    ).toBeLessThan(Infinity);
    const german = { language: 'de' };
    expect(
      boundaryCost([segmentPage({ language: 'pt' }), segmentPage(german, false)], 1, costs),
    ).toBeCloseTo(same * costs.languageChange);
  });
});
