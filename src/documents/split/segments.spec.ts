import { describe, expect, it } from '@jest/globals';
import type { CategoryEvidence } from '../classify/evidence.js';
import { EMBEDDING_SIZE } from '../encoder/use.network.js';
import { pageLanguage } from './page-cues.js';
import {
  blendedBoundaryCosts,
  boundaryCost,
  boundaryLogOdds,
  lendFullerVotes,
  SEGMENT_COSTS,
  type SegmentPage,
} from './segments.js';
import { reviseUnsureSegments, segmentReadings, segmentSections } from './segment-cut.js';

/** The hand-set boundary cost (no boundary model, no pooled vote). */
const HAND_COSTS = { ...SEGMENT_COSTS, boundaryWeight: 0, pooledWeight: 0 };

const none = { semantic: 0, passage: -1, lexical: 0, layout: 0 };
function evidence(semantic: number): CategoryEvidence {
  return { label: none, criteria: [{ ...none, semantic }] };
}

/** A page with the same evidence for both sections, so only the boundary cues decide. */
function page(
  language: string | undefined,
  sections = [evidence(0.5), evidence(0.5)],
): SegmentPage {
  return {
    sections,
    vector: null,
    cues: {
      language,
      printedNumber: undefined,
      printedTotal: undefined,
      dimensions: undefined,
    },
    namedSection: undefined,
    pageProbabilities: [0.5, 0.5],
    supported: true,
  };
}

const german =
  'Die Versammlung hat beschlossen, dass der Vorstand die Mitglieder rechtzeitig über alle ' +
  'Änderungen der Satzung informiert und die Unterlagen vor der nächsten Sitzung verschickt. ' +
  'Die Mitglieder können ihre Anträge bis zum Ende des Monats schriftlich einreichen, damit ' +
  'der Vorstand sie prüfen und in die Tagesordnung der nächsten Versammlung aufnehmen kann. ' +
  'Über die Anträge wird mit einfacher Mehrheit der anwesenden Mitglieder abgestimmt.';
const english =
  'The meeting resolved that the board informs the members in good time of every change to ' +
  'the rules and sends the papers before the next session. Members may hand in their motions ' +
  'in writing until the end of the month, so that the board can review them and add them to ' +
  'the agenda of the next meeting. Motions are decided by a simple majority of the members ' +
  'present, and the minutes record each vote with the names of those who proposed it.';

describe('page language as a boundary cue', () => {
  it('tells the language of a page of running text, and none of a page with little text', () => {
    // A page of running text: the paragraph twice (400 letters at least).
    expect(pageLanguage(`${german}\n${german}`)).toBe('de');
    expect(pageLanguage(`${english}\n${english}`)).toBe('en');
    expect(pageLanguage(german.slice(0, 200))).toBeUndefined();
    expect(pageLanguage('Total 1,250.00 EUR\n2026-03-01')).toBeUndefined();
  });

  it('lowers the cost of a new document where the language changes, by the costs factor', () => {
    const costs = { ...HAND_COSTS, languageChange: 0.25 };
    const same = boundaryCost([page('de'), page('de')], 1, costs);
    const changed = boundaryCost([page('de'), page('en')], 1, costs);
    const unknown = boundaryCost([page('de'), page(undefined)], 1, costs);
    expect(changed).toBeCloseTo(same * 0.25);
    expect(unknown).toBeCloseTo(same);
  });

  it('cuts where the language changes when the evidence leans there, not without the cue', () => {
    // Pages 1-2 lean to section 0, pages 3-4 slightly to section 1.
    const lean0 = [evidence(0.52), evidence(0.5)];
    const lean1 = [evidence(0.5), evidence(0.51)];
    const pages = [page('de', lean0), page('de', lean0), page('en', lean1), page('en', lean1)];
    const withCue = segmentSections(pages, { ...HAND_COSTS, languageChange: 0.1 });
    const withoutCue = segmentSections(
      pages.map((p) => ({ ...p, cues: { ...p.cues, language: undefined } })),
      { ...HAND_COSTS, languageChange: 0.1 },
    );
    expect(withCue).toEqual([0, 0, 1, 1]);
    expect(withoutCue).toEqual([0, 0, 0, 0]);
  });
});

describe('boundary model and pooled vote', () => {
  it('reads a new document as likelier where the page shows another document, less where its number runs on', () => {
    const plain = boundaryLogOdds([page('de'), page('de')], 1);
    expect(boundaryLogOdds([page('de'), page('en')], 1)).toBeGreaterThan(plain);
    const numbered = (printedNumber: number) => ({
      ...page('de'),
      cues: { ...page('de').cues, printedNumber },
    });
    expect(boundaryLogOdds([numbered(3), numbered(4)], 1)).toBeLessThan(plain);
    const sized = (bodySize: number) => ({ ...page('de'), cues: { ...page('de').cues, bodySize } });
    expect(boundaryLogOdds([sized(0.012), sized(0.012), sized(0.02)], 2)).toBeGreaterThan(
      boundaryLogOdds([sized(0.012), sized(0.012), sized(0.012)], 2),
    );
    // The cost of a new document is the model's log-odds against one, so a likely boundary is cheap.
    expect(boundaryCost([page('de'), page('en')], 1)).toBeLessThan(
      boundaryCost([page('de'), page('de')], 1),
    );
  });

  it('cuts where the language changes when the evidence leans there, with the boundary model', () => {
    const lean0 = [evidence(0.56), evidence(0.5)];
    const lean1 = [evidence(0.5), evidence(0.56)];
    const pages = [page('de', lean0), page('de', lean0), page('en', lean1), page('en', lean1)];
    expect(segmentSections(pages)).toEqual([0, 0, 1, 1]);
    const oneLanguage = pages.map((p) => ({ ...p, cues: { ...p.cues, language: 'de' } }));
    expect(segmentSections(oneLanguage)).toEqual([0, 0, 0, 0]);
  });

  it('keeps a page without evidence of its own in the document before it, unless a cue says it starts one', () => {
    // A closing page ("Thank you for your business.") unlike the page before it in every word.
    const oneHot = (index: number) => {
      const vector = new Float32Array(EMBEDDING_SIZE);
      vector[index] = 1;
      return vector;
    };
    const content = { ...page('en'), vector: oneHot(0) };
    const closing = { ...page('en'), vector: oneHot(1), supported: false };
    expect(boundaryLogOdds([content, { ...closing, supported: true }], 1)).toBeGreaterThan(0);
    expect(boundaryCost([content, closing], 1)).toBe(Infinity);
    const inGerman = { ...closing, cues: { ...closing.cues, language: 'de' } };
    expect(boundaryCost([content, inGerman], 1)).toBeLessThan(0);
  });

  it('decides a document by what most of its pages read as, not one stray page, at a pooled weight', () => {
    // One page matches section 1 strongly (a stray passage); three read as section 0.
    const stray = { ...page('de', [evidence(0.5), evidence(0.6)]), pageProbabilities: [0.3, 0.7] };
    const usual = {
      ...page('de', [evidence(0.55), evidence(0.45)]),
      pageProbabilities: [0.9, 0.1],
    };
    const pages = [usual, stray, usual, usual];
    const oneDocument = { ...HAND_COSTS, segment: 1e9 };
    expect(segmentSections(pages, oneDocument)).toEqual([1, 1, 1, 1]);
    expect(segmentSections(pages, { ...oneDocument, pooledWeight: 2 })).toEqual([0, 0, 0, 0]);
  });
});

describe('a cut over two readings pooled as opinions', () => {
  const oneDocument = { ...HAND_COSTS, segment: 1e9 };
  const reading = (pages: SegmentPage[], share: number) => ({
    pages,
    costs: oneDocument,
    statementWeights: null,
    share,
  });
  // The second reading is sure the document is section 1.
  const sure1 = {
    ...page('de', [evidence(0.5), evidence(0.7)]),
    pageProbabilities: [0.05, 0.95],
  };
  const second = [sure1, sure1];

  it('lets a second reading at a small share decide only what the first is unsure of', () => {
    const unsure = [page('de'), page('de')];
    const sure0 = { ...page('de', [evidence(0.7), evidence(0.5)]), pageProbabilities: [0.9, 0.1] };
    expect(segmentReadings([reading(unsure, 1), reading(second, 0.1)])).toEqual([1, 1]);
    expect(segmentReadings([reading([sure0, sure0], 1), reading(second, 0.1)])).toEqual([0, 0]);
  });

  it('cuts as the first reading alone when the second has no share', () => {
    const pages = [page('de', [evidence(0.52), evidence(0.5)]), page('de')];
    expect(segmentReadings([reading(pages, 1), reading(second, 0)])).toEqual(
      segmentSections(pages, oneDocument),
    );
  });

  it('decides again only the segments the first reading is unsure of, and keeps its boundaries', () => {
    const sure0 = { ...page('de', [evidence(0.7), evidence(0.5)]), pageProbabilities: [0.9, 0.1] };
    const unsure = [page('de'), page('de')];
    expect(reviseUnsureSegments([reading(unsure, 1), reading(second, 0.5)], 2)).toEqual([1, 1]);
    expect(reviseUnsureSegments([reading([sure0, sure0], 1), reading(second, 0.5)], 2)).toEqual([
      0, 0,
    ]);
    // Two documents the first reading cuts in German then English, each leaning a little: the
    // second reading, sure of the other section in each, changes each document's section
    // but not where one ends.
    const lean0 = [evidence(0.56), evidence(0.5)];
    const lean1 = [evidence(0.5), evidence(0.56)];
    const pages = [page('de', lean0), page('de', lean0), page('en', lean1), page('en', lean1)];
    const cut = { pages, costs: SEGMENT_COSTS, statementWeights: null, share: 1 };
    const sure0Again = { ...sure0, pageProbabilities: [0.95, 0.05] };
    const fuller = {
      ...reading([sure1, sure1, sure0Again, sure0Again], 0.5),
      costs: SEGMENT_COSTS,
    };
    expect(segmentReadings([cut])).toEqual([0, 0, 1, 1]);
    expect(reviseUnsureSegments([cut, fuller], 2)).toEqual([1, 1, 0, 0]);
    expect(reviseUnsureSegments([cut, fuller], 0)).toEqual([0, 0, 1, 1]);
  });
});

describe("the fuller reading's vote lent to pages the default reading finds nothing on", () => {
  const oneHot = (index: number) => {
    const vector = new Float32Array(EMBEDDING_SIZE);
    vector[index] = 1;
    return vector;
  };
  // A document the default reading finds evidence on, then one it finds none on (its pages
  // read unlike the first's), which the fuller reading finds to be section 1.
  const found = { ...page('en'), vector: oneHot(0), pageProbabilities: [0.9, 0.1] };
  const unfound = { ...page('en'), vector: oneHot(1), supported: false };
  const pages = [found, found, unfound, unfound];
  const fuller = [
    { supported: true, probabilities: [0.2, 0.8] },
    { supported: true, probabilities: [0.2, 0.8] },
    { supported: true, probabilities: [0.02, 0.98] },
    { supported: false, probabilities: [0.5, 0.5] },
  ];

  it('gives only such pages a vote, the fuller one drawn toward equal shares, and lets them start a document', () => {
    const lent = lendFullerVotes(pages, fuller, 0.5);
    expect(lent[0]).toBe(found);
    expect(lent[1]).toBe(found);
    expect(lent[2].supported).toBe(true);
    expect(lent[2].pageProbabilities[0]).toBeCloseTo(0.26, 5);
    expect(lent[2].pageProbabilities[1]).toBeCloseTo(0.74, 5);
    expect(lent[3]).toBe(unfound);
    expect(lendFullerVotes(pages, fuller, 0)).toEqual(pages);
    // A page the fuller reading gives no section the majority asked for is lent nothing.
    expect(lendFullerVotes(pages, fuller, 0.5, 0.99)).toEqual(pages);
    // Readings without the fuller reading's own probabilities lend nothing.
    const bare = fuller.map((f) => ({ ...f, probabilities: undefined }));
    expect(lendFullerVotes(pages, bare, 0.5)).toEqual(pages);
  });

  it('cuts off the document the default reading finds nothing on only with the lent vote', () => {
    expect(segmentSections(pages)).toEqual([0, 0, 0, 0]);
    expect(segmentSections(lendFullerVotes(pages, fuller, 0.5))).toEqual([0, 0, 1, 1]);
  });
});

describe("Deep Split's boundaries read with the fuller reading's passages too", () => {
  const oneHot = (index: number) => {
    const vector = new Float32Array(EMBEDDING_SIZE);
    vector[index] = 1;
    return vector;
  };
  // Four pages in one language, the first two leaning to section 0, the last two to 1, which
  // the default reading's passages read alike; the fuller reading's read the last two unlike
  // the first two.
  const lean0 = [evidence(0.56), evidence(0.5)];
  const lean1 = [evidence(0.5), evidence(0.56)];
  const pages = [lean0, lean0, lean1, lean1].map((sections) => ({
    ...page('en', sections),
    vector: oneHot(0),
  }));
  const fullerVectors = [oneHot(0), oneHot(0), oneHot(1), oneHot(1)];

  it("is the default's boundary cost at share 0, and cheaper where the fuller passages change", () => {
    const alone = blendedBoundaryCosts(pages, fullerVectors, 0);
    expect(alone.slice(1)).toEqual([1, 2, 3].map((i) => boundaryCost(pages, i)));
    const blended = blendedBoundaryCosts(pages, fullerVectors, 0.5);
    expect(blended[2]).toBeLessThan(alone[2]);
    expect(blended[1]).toBeCloseTo(alone[1], 9);
    expect(blended[3]).toBeCloseTo(alone[3], 9);
    // A page without evidence of its own and no cue still cannot start a document.
    const unsupported = pages.map((p, i) => (i === 2 ? { ...p, supported: false } : p));
    expect(blendedBoundaryCosts(unsupported, fullerVectors, 0.5)[2]).toBe(Infinity);
  });

  it('lets a page with evidence only by a lent vote start a document only where the cues say one begins', () => {
    const own = pages.map((p, i) => (i === 2 ? { ...p, supported: false } : p));
    // Page 2 is lent its vote: with no more than the change of passages it starts no document.
    expect(blendedBoundaryCosts(pages, fullerVectors, 0.5, SEGMENT_COSTS, own)[2]).toBe(Infinity);
    expect(
      blendedBoundaryCosts(pages, fullerVectors, 0.5, SEGMENT_COSTS, own, -Infinity)[2],
    ).toBeCloseTo(blendedBoundaryCosts(pages, fullerVectors, 0.5)[2], 9);
    // Where its language and passages change, the cues say a document begins: it may start one.
    const english = pages.map((p, i) =>
      i < 2 ? { ...p, cues: { ...p.cues, language: 'de' } } : { ...p, vector: oneHot(1) },
    );
    const odds = boundaryLogOdds(english, 2);
    expect(odds).toBeGreaterThan(0);
    expect(blendedBoundaryCosts(english, fullerVectors, 0, SEGMENT_COSTS, own)[2]).toBeCloseTo(
      -SEGMENT_COSTS.boundaryWeight * odds,
      9,
    );
  });

  it('cuts where the blended costs say, the reading itself unchanged', () => {
    const reading = { pages, costs: SEGMENT_COSTS, statementWeights: null, share: 1 };
    expect(segmentReadings([reading])).toEqual([0, 0, 0, 0]);
    const boundaryCosts = blendedBoundaryCosts(pages, fullerVectors, 1);
    expect(segmentReadings([{ ...reading, boundaryCosts }])).toEqual([0, 0, 1, 1]);
  });
});
