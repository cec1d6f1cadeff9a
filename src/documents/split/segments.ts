/**
 * Where one document of a bundle ends and the next begins, and what each one is. A page
 * alone says little (a slide, a page of a chapter, a signature page); a document read whole
 * says what it is. So the pages are cut into consecutive segments and each segment is
 * classified as one document, with the same evidence and fusion rule as the classifier:
 * each criterion's evidence in a segment is the best any of its pages gives, and, at a
 * pooled weight, each page counts the mean of its segment's pages' own probabilities (what
 * most of the document reads as, so that one stray page does not decide it). The cut is the
 * one that makes the pages' sections most probable (dynamic programming over every cut;
 * each page counts its segment's log-probability and, at a page weight, its own), where
 * starting a new segment costs the boundary model's log-odds against a boundary there
 * (BOUNDARY_MODEL): what the page shows of its document apart from the sections (page-cues.ts)
 * - a change of its passages' meaning, of language, of page format or of body type size,
 * printed numbers starting again or running on, and whether the page has evidence of its own.
 * A new document is cheap where these say one begins, dear where they say the page goes on.
 * A page without evidence of its own neither votes nor starts a document unless its number
 * starts again or its language or format changes. The earlier hand-set cost (`segment` and
 * its factors) is kept for a zero boundary weight.
 */
import type { CategoryEvidence } from '../classify/evidence.js';
import { cosine } from '../encoder/sentence-encoder.js';
import { formatChanges, typeSizeChanges, type PageCues } from './page-cues.js';

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
  /**
   * Weight of the boundary model's log-odds (boundaryLogOdds) as the cost of a new segment;
   * 0 keeps the cost above (`segment` and its factors).
   */
  boundaryWeight: number;
  /**
   * Weight of the pooled vote of a segment's pages (the log of their mean probability for a
   * section, for each page) beside its best evidence.
   */
  pooledWeight: number;
}

/** What the boundary model reads of page `i` against the page before it (boundaryFeatures). */
export type BoundaryFeatures = Record<keyof typeof BOUNDARY_MODEL, number>;

/**
 * How likely a page starts a new document, as a logistic model of what it shows apart from
 * the sections: the change of its passage vector from the page before (and its square), a
 * change of language, of page format or of body type size, printed numbers starting again
 * or running on, and whether the page has evidence of its own. Fitted once on the bundles
 * generated from the development documents (`npm run bench:split-eval -- --generated
 * --fit-boundaries`), the same for every request.
 */
export const BOUNDARY_MODEL = {
  bias: -5.02,
  change: 1.79,
  changeSquared: 4.3,
  language: 2.8,
  format: 2.21,
  typeSize: 1.6,
  startsAgain: 0.86,
  runsOn: -1.74,
  unsupported: -0.96,
};

/** The boundary model's inputs for page `i` (i >= 1): each cue 1 or 0, the change 0..1. */
export function boundaryFeatures(pages: readonly SegmentPage[], i: number): BoundaryFeatures {
  const [before, current] = [pages[i - 1].cues, pages[i].cues];
  const startsAgain = numberStartsAgain(before, current);
  const shift = change(pages, i);
  const flag = (present: boolean) => (present ? 1 : 0);
  return {
    bias: 1,
    change: shift,
    changeSquared: shift * shift,
    language: flag(languageChanges(before, current)),
    format: flag(formatChanges(before, current)),
    typeSize: flag(newTypeSize(pages, i)),
    startsAgain: flag(startsAgain),
    runsOn: flag(!startsAgain && runsOn(before, current)),
    unsupported: flag(!pages[i].supported),
  };
}

/** The log-odds that page `i` (i >= 1) starts a new document (BOUNDARY_MODEL). */
export function boundaryLogOdds(pages: readonly SegmentPage[], i: number): number {
  const features = boundaryFeatures(pages, i);
  return (Object.keys(BOUNDARY_MODEL) as (keyof BoundaryFeatures)[]).reduce(
    (sum, key) => sum + BOUNDARY_MODEL[key] * features[key],
    0,
  );
}

export const SEGMENT_COSTS: SegmentCosts = {
  segment: 2,
  pageWeight: 0.25,
  temperature: 0.03,
  namedElsewhere: 3,
  languageChange: 0.25,
  distinctWeight: 0,
  formatChange: 0.5,
  boundaryWeight: 4,
  pooledWeight: 2,
};

/**
 * Deep Split's weights over its fuller page reading (split.operation.ts): the segment's
 * evidence is sharper, as its pages find more stray matches, and each segment is also read a
 * second time on the statements that tell its sections apart. Pooled with the default
 * reading (segment-cut.ts), only these two count: the cut, its boundaries and its page and
 * pooled weights are the default's. The others apply when the fuller reading is cut alone
 * (the bench compares with it).
 */
export const DEEP_SEGMENT_COSTS: SegmentCosts = {
  segment: 6,
  pageWeight: 0.25,
  temperature: 0.02,
  namedElsewhere: 3,
  languageChange: 0.25,
  distinctWeight: 1,
  formatChange: 0.25,
  boundaryWeight: 8,
  pooledWeight: 2,
};

/**
 * Deep Split (split.operation.ts assignDeepSplit): the default's cut, each segment whose best
 * section leads the next by less than UNSURE_MARGIN per page (log-probability) decided again
 * with the fuller reading pooled in at FULLER_READING_SHARE beside the default reading's 1.
 * Chosen by cross-validation over the generated development bundles (`npm run
 * bench:split-eval -- --generated --pool`, docs/decisions/0469-deep-split-decides-again-what-the-default-is-unsure-of.md).
 */
export const FULLER_READING_SHARE = 0.5;
export const UNSURE_MARGIN = 2;
/**
 * Weight of the fuller reading's vote lent to a page the default reading finds no evidence on
 * (lendFullerVotes): its probabilities drawn this far from equal shares. Chosen by
 * cross-validation over the generated development bundles (`npm run bench:split-eval --
 * --generated --lend`, docs/decisions/0506-deep-split-lends-the-fuller-reading-s-vote.md).
 */
export const LENT_VOTE_WEIGHT = 0.5;
/**
 * The share of its probability the fuller reading must give one section on such a page for
 * the page to be lent its vote (a majority): a page it reads as several sections at once has
 * only stray matches to lend. Chosen with LENT_VOTE_WEIGHT.
 */
export const LENT_VOTE_MAJORITY = 0.5;

/**
 * The share of Deep Split's boundary log-odds read with the fuller reading's passage vectors
 * (blendedBoundaryCosts). Chosen by cross-validation over the generated development bundles
 * (`npm run bench:split-eval -- --generated --boundary-share`,
 * docs/decisions/0512-deep-split-boundaries-from-the-fuller-reading.md).
 */
export const FULLER_CHANGE_SHARE = 0.2;

/**
 * The boundary log-odds (blended) above which a page that has evidence only by a lent vote
 * (lendFullerVotes) may start a document: a lent vote for a neighbour's section on one page
 * (a closing page, a page of code) otherwise starts a stray document of that section. Chosen
 * on the generated development bundles (`npm run bench:split-eval -- --generated
 * --lent-start`, docs/decisions/0512-deep-split-boundaries-from-the-fuller-reading.md).
 */
export const LENT_START_LOG_ODDS = 0;

/**
 * The cost of a new segment at each page (index 0 unused) for Deep Split's cut: the boundary
 * model's log-odds over the default reading's pages and over the same pages with the fuller
 * reading's passage vectors (more passages of each page, so how unlike a page is to the one
 * before is read from more of both), mixed at `share`. Every other cue, and whether a page
 * may start a document at all, is the default reading's pages' own; a page that has evidence
 * only by a lent vote (supported in `pages`, not in `ownPages`) starts one only where the
 * mixed log-odds exceed `lentStart`.
 */
export function blendedBoundaryCosts(
  pages: readonly SegmentPage[],
  fullerVectors: readonly (Float32Array | null)[],
  share = FULLER_CHANGE_SHARE,
  costs: SegmentCosts = SEGMENT_COSTS,
  ownPages: readonly SegmentPage[] = pages,
  lentStart = LENT_START_LOG_ODDS,
): number[] {
  const fuller = pages.map((page, i) => ({ ...page, vector: fullerVectors[i] ?? null }));
  return pages.map((_, i) => {
    if (i === 0) return 0;
    const cost = boundaryCost(pages, i, costs);
    if (cost === Infinity || costs.boundaryWeight <= 0) return cost;
    const odds =
      share > 0
        ? (1 - share) * boundaryLogOdds(pages, i) + share * boundaryLogOdds(fuller, i)
        : boundaryLogOdds(pages, i);
    const lentOnly = pages[i].supported && !ownPages[i].supported;
    if (lentOnly && odds <= lentStart) return Infinity;
    return -costs.boundaryWeight * odds;
  });
}

/** What the fuller reading says of one page (Deep Split's reading of both). */
export interface FullerPage {
  /** The fuller reading finds evidence of its own on the page. */
  supported: boolean;
  /** The fuller reading's own section probabilities for the page alone. */
  probabilities: readonly number[] | undefined;
}

/**
 * Deep Split's pages for the default's cut: a page the default reading finds no evidence on
 * (a manual's page of running text in another language than the sections' descriptions, say)
 * neither votes nor starts a document there, so a document of such pages is absorbed by its
 * neighbour. Where the fuller reading (more passages and single lines) does find evidence and
 * gives one section at least `majority` of its probability, the page votes with the fuller
 * reading's own probabilities, drawn toward equal shares at `weight` (its single lines find
 * stray matches too), and may start a document as any page with evidence may. Pages the
 * default reading finds evidence on keep their own vote.
 */
export function lendFullerVotes(
  pages: readonly SegmentPage[],
  fuller: readonly FullerPage[],
  weight = LENT_VOTE_WEIGHT,
  majority = LENT_VOTE_MAJORITY,
): SegmentPage[] {
  return pages.map((page, i) => {
    const { supported, probabilities } = fuller[i] ?? {
      supported: false,
      probabilities: undefined,
    };
    if (page.supported || !supported || !probabilities || weight <= 0) return page;
    if (Math.max(...probabilities) < majority) return page;
    const even = (1 - weight) / probabilities.length;
    return {
      ...page,
      pageProbabilities: probabilities.map((p) => even + weight * p),
      supported: true,
    };
  });
}

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

function languageChanges(before: PageCues, current: PageCues): boolean {
  return (
    current.language !== undefined &&
    before.language !== undefined &&
    current.language !== before.language
  );
}

/** The printed number runs on from the page before (3 after 2). */
function runsOn(before: PageCues, current: PageCues): boolean {
  return (
    current.printedNumber !== undefined &&
    before.printedNumber !== undefined &&
    current.printedNumber === before.printedNumber + 1
  );
}

function newTypeSize(pages: readonly SegmentPage[], i: number): boolean {
  return typeSizeChanges(
    pages.slice(Math.max(0, i - 2), i + 1).map((page) => page.cues),
    Math.min(i, 2),
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
  const newFormat = formatChanges(before, current);
  const newLanguage = languageChanges(before, current);
  // A page without evidence of its own (a closing note, a signature page, a continued table)
  // continues a document unless a cue says it starts one: its text changing from the page
  // before says nothing, since any such page differs from a page of content.
  if (!pages[i].supported && !startsAgain && !newFormat && !newLanguage) return Infinity;
  if (costs.boundaryWeight > 0) return -costs.boundaryWeight * boundaryLogOdds(pages, i);
  let cost = costs.segment * (1 - change(pages, i));
  if (newLanguage && costs.languageChange < 1) cost *= costs.languageChange;
  if (newFormat && costs.formatChange < 1) cost *= costs.formatChange;
  if (startsAgain) cost *= 0.25;
  else if (runsOn(before, current)) cost += costs.segment;
  return cost;
}
