/**
 * What split answers for each page once its reading is cut (split.operation.ts): the page's
 * section, confidence and evidence line; and the cut's input read from a page reading.
 */
import type { SegmentCosts, SegmentPage } from './segments.js';
import type { PageScore, SplitReading } from './split.operation.js';

export interface Assignment {
  page: number;
  section: number | undefined;
  confidence: 'high' | 'medium' | 'low';
  evidence: string;
}

/** The page's own section and confidence, from its evidence alone. */
function ownAssignment(s: PageScore): Assignment {
  const top = s.scores[s.best] ?? 0;
  const second = Math.max(0, ...s.scores.filter((_, i) => i !== s.best));
  const confidence = s.headingMatch ? 'high' : top >= 2 * second ? 'medium' : 'low';
  return { page: s.page.pageNumber, section: s.best, confidence, evidence: s.evidence };
}

/** Each page judged alone (deep-split-v1): pages without evidence of their own are left out. */
export function assignEachPage({ scored }: SplitReading): Assignment[] {
  return scored.map((s) =>
    s.supported && s.evidence !== ''
      ? ownAssignment(s)
      : { page: s.page.pageNumber, section: undefined, confidence: 'low', evidence: '' },
  );
}

/** What the cut reads of each page (segments.ts). */
export function segmentPages({ scored, evidence }: SplitReading): SegmentPage[] {
  return scored.map((s, i) => ({
    sections: evidence[i].sections,
    vector: evidence[i].vector,
    cues: s.cues,
    namedSection: s.headingMatch ? s.best : undefined,
    // A page without evidence of its own (a continued table, a signature page) does not vote.
    pageProbabilities: s.supported
      ? evidence[i].probabilities
      : evidence[i].probabilities.map(() => 1 / evidence[i].probabilities.length),
    supported: s.supported,
  }));
}

/** One reading of the pages counted by the cut at its weights and share (segmentReadings). */
export interface WeighedReading {
  reading: SplitReading;
  costs: SegmentCosts;
  share: number;
}

/** The cut's input from each weighed reading: its pages, weights and share. */
export function segmentInputs(readings: readonly WeighedReading[]) {
  return readings.map(({ reading, costs, share }) => ({
    pages: segmentPages(reading),
    costs,
    statementWeights: reading.statementWeights,
    share,
  }));
}

/** Each page's assignment once the cut has given it its section. */
export function assignSections(
  { scored }: SplitReading,
  sections: readonly number[],
): Assignment[] {
  const lastPage = new Map<number, number>();
  return scored.map((s, i): Assignment => {
    const section = sections[i];
    const page = s.page.pageNumber;
    const before = lastPage.get(section);
    lastPage.set(section, page);
    if (s.supported && s.best === section) return ownAssignment(s);
    const evidenceText =
      before !== undefined && sections[i - 1] === section
        ? `No evidence of its own; continues the section of page ${before}`
        : 'No evidence of its own; read with the pages that follow it as one document';
    return { page, section, confidence: 'low', evidence: evidenceText };
  });
}
