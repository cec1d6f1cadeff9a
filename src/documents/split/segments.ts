/**
 * Where one document of a bundle ends and the next begins, and what each one is. A page
 * alone says little (a slide, a page of a chapter, a signature page); a document read whole
 * says what it is. So the pages are cut into consecutive segments and each segment is
 * classified as one document, with the same evidence and fusion rule as the classifier:
 * each criterion's evidence in a segment is the best any of its pages gives. The cut is the
 * one that makes the pages' sections most probable (dynamic programming over every cut;
 * each page counts its segment's log-probability and, at a page weight, its own),
 * where starting a new segment has a cost, less at a page unlike the one before it, and
 * less or more by what the page shows of its document apart from its words (page-cues.ts):
 * less at a page written in another language than the one before it, of another format
 * (size or orientation), or whose printed number starts again (at 1, after the last page of
 * a printed count, or with another count); more where the printed number runs on from the
 * page before.
 * A page without evidence of its own (a continued table, a signature page) neither votes
 * nor starts a document, unless its number starts again or its language or format changes.
 */
import type { CategoryEvidence, CriterionEvidence } from '../classify/evidence.js';
import { categoryScore, probabilities } from '../classify/fusion.js';
import { cosine } from '../encoder/sentence-encoder.js';
import { formatChanges, type PageCues } from './page-cues.js';

/** What segmentation reads of one page. */
export interface SegmentPage {
  /** Each section's evidence on this page alone (its name and its description). */
  sections: readonly CategoryEvidence[];
  /** Mean of the page's passage vectors, normalized; null without the encoder or text. */
  vector: Float32Array | null;
  /** What the page shows of its document apart from its words (page-cues.ts). */
  cues: PageCues;
  /** A heading of the page naming this section, if any. */
  namedSection: number | undefined;
  /** Each section's probability for this page alone (equal shares for a page without evidence). */
  pageProbabilities: readonly number[];
  /** The page has evidence of its own for a section (else it cannot start a document). */
  supported: boolean;
}

/**
 * The weights of the cut, chosen by cross-validation over generated bundles of the
 * development documents (`npm run bench:split-eval -- --generated --sweep`,
 * docs/decisions/0340-split-costs-chosen-on-generated-bundles.md).
 */
export interface SegmentCosts {
  /** Log-probability cost of starting a new segment between two pages that look alike. */
  segment: number;
  /**
   * Weight of each page's own section probabilities beside its segment's: a segment's
   * evidence is the best of its pages, so it cannot tell one document from two glued
   * together; the pages' own votes can.
   */
  pageWeight: number;
  /** Softmax temperature of a segment's section probabilities. */
  temperature: number;
  /** Log-probability cost, per page, of a segment whose page has a heading naming another section. */
  namedElsewhere: number;
  /**
   * Factor on the cost of a new segment at a page in another language than the page before
   * (a document rarely changes language from one page to the next; a bundle often does).
   */
  languageChange: number;
  /**
   * Weight of a segment's second reading, its sections' statements weighed by how well each
   * tells its section from the others (distinctStatementWeights), added to its score.
   */
  distinctWeight: number;
  /** Factor on the cost of a new segment at a page of another size or orientation. */
  formatChange: number;
}

export const SEGMENT_COSTS: SegmentCosts = {
  segment: 2,
  pageWeight: 0.25,
  temperature: 0.03,
  namedElsewhere: 3,
  languageChange: 0.25,
  distinctWeight: 0,
  formatChange: 0.5,
};

/**
 * Deep Split's weights over its fuller page reading (split.operation.ts): a new document
 * costs more and the segment's evidence is sharper, as its pages find more stray matches;
 * each segment is also read a second time on the statements that tell its sections apart.
 */
export const DEEP_SEGMENT_COSTS: SegmentCosts = {
  segment: 6,
  pageWeight: 0.5,
  temperature: 0.02,
  namedElsewhere: 3,
  languageChange: 0.25,
  distinctWeight: 1,
  formatChange: 0.25,
};

/** How unlike page `i` is to page `i - 1`, 0..1 (0.5 when either has no vector). */
function change(pages: readonly SegmentPage[], i: number): number {
  const previous = pages[i - 1]?.vector;
  const current = pages[i]?.vector;
  if (!previous || !current) return 0.5;
  return Math.min(1, Math.max(0, 1 - cosine(previous, current)));
}

/**
 * The printed numbers say a new document begins at `current`: its number is 1 after
 * another, the page before was the last of its printed count, or the count changes.
 */
function numberStartsAgain(before: PageCues, current: PageCues): boolean {
  if (current.printedNumber === 1 && before.printedNumber !== 0) return true;
  if (before.printedTotal !== undefined && before.printedNumber === before.printedTotal)
    return true;
  return (
    before.printedTotal !== undefined &&
    current.printedTotal !== undefined &&
    before.printedTotal !== current.printedTotal
  );
}

/** The cost of starting a segment at page `i` (i >= 1). */
export function boundaryCost(
  pages: readonly SegmentPage[],
  i: number,
  costs: SegmentCosts = SEGMENT_COSTS,
): number {
  const [before, current] = [pages[i - 1].cues, pages[i].cues];
  const startsAgain = numberStartsAgain(before, current);
  const newFormat = costs.formatChange < 1 && formatChanges(before, current);
  const newLanguage =
    costs.languageChange < 1 &&
    current.language !== undefined &&
    before.language !== undefined &&
    current.language !== before.language;
  // A page without evidence of its own continues a document unless a cue says it starts one.
  if (!pages[i].supported && !startsAgain && !newFormat && !newLanguage) return Infinity;
  let cost = costs.segment * (1 - change(pages, i));
  if (newLanguage) cost *= costs.languageChange;
  if (newFormat) cost *= costs.formatChange;
  if (startsAgain) cost *= 0.25;
  else if (
    current.printedNumber !== undefined &&
    before.printedNumber !== undefined &&
    current.printedNumber === before.printedNumber + 1
  )
    cost += costs.segment;
  return cost;
}

function maxEvidence(a: CriterionEvidence, b: CriterionEvidence): CriterionEvidence {
  return {
    semantic: Math.max(a.semantic, b.semantic),
    passage: a.semantic >= b.semantic ? a.passage : b.passage,
    lexical: Math.max(a.lexical, b.lexical),
    layout: Math.max(a.layout, b.layout),
  };
}

function mergeEvidence(a: CategoryEvidence, b: CategoryEvidence): CategoryEvidence {
  return {
    label: maxEvidence(a.label, b.label),
    criteria: a.criteria.map((criterion, i) => maxEvidence(criterion, b.criteria[i])),
  };
}

/**
 * The section of every page: the most probable cut of the pages into segments and the
 * section of each segment (sum over pages of the log-probability of their segment's
 * section, minus the cost of each new segment).
 */
export function segmentSections(
  pages: readonly SegmentPage[],
  costs: SegmentCosts = SEGMENT_COSTS,
  statementWeights: readonly (readonly number[])[] | null = null,
): number[] {
  const second = costs.distinctWeight > 0 ? statementWeights : null;
  const score = (evidence: CategoryEvidence, k: number) =>
    categoryScore(evidence) +
    (second ? costs.distinctWeight * categoryScore(evidence, second[k]) : 0);
  const n = pages.length;
  if (n === 0) return [];
  const count = pages[0].sections.length;
  // best[b]: score of the best cut of pages 0..b-1; from[b]: start and section of its last segment.
  const best = new Float64Array(n + 1).fill(-Infinity);
  const from: { start: number; section: number }[] = new Array(n + 1);
  best[0] = 0;
  for (let start = 0; start < n; start++) {
    const entry = best[start] - (start > 0 ? boundaryCost(pages, start, costs) : 0);
    let merged: CategoryEvidence[] = pages[start].sections.map((s) => s);
    const namedCost = new Float64Array(count);
    const pageSum = new Float64Array(count);
    for (let end = start; end < n; end++) {
      if (end > start) merged = merged.map((s, k) => mergeEvidence(s, pages[end].sections[k]));
      for (let k = 0; k < count; k++)
        pageSum[k] += Math.log(pages[end].pageProbabilities[k] + 1e-9);
      const named = pages[end].namedSection;
      if (named !== undefined) {
        for (let k = 0; k < count; k++) if (k !== named) namedCost[k] += costs.namedElsewhere;
      }
      const chances = probabilities(
        merged.map((evidence, k) => score(evidence, k)),
        costs.temperature,
      );
      const length = end - start + 1;
      for (let k = 0; k < count; k++) {
        const value =
          entry +
          length * Math.log(chances[k] + 1e-9) +
          costs.pageWeight * pageSum[k] -
          namedCost[k];
        if (value > best[end + 1]) {
          best[end + 1] = value;
          from[end + 1] = { start, section: k };
        }
      }
    }
  }
  const sections = new Array<number>(n);
  for (let end = n; end > 0;) {
    const { start, section } = from[end];
    for (let i = start; i < end; i++) sections[i] = section;
    end = start;
  }
  return sections;
}
