import { describe, expect, it } from '@jest/globals';
import type { CategoryEvidence } from '../classify/evidence.js';
import { pageLanguage } from './page-cues.js';
import { boundaryCost, SEGMENT_COSTS, segmentSections, type SegmentPage } from './segments.js';

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
    const costs = { ...SEGMENT_COSTS, languageChange: 0.25 };
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
    const withCue = segmentSections(pages, { ...SEGMENT_COSTS, languageChange: 0.1 });
    const withoutCue = segmentSections(
      pages.map((p) => ({ ...p, cues: { ...p.cues, language: undefined } })),
      { ...SEGMENT_COSTS, languageChange: 0.1 },
    );
    expect(withCue).toEqual([0, 0, 1, 1]);
    expect(withoutCue).toEqual([0, 0, 0, 0]);
  });
});
