import { readableDocument } from '../extract/readable-text.js';
import { distinctStatementWeights, readPageEvidence, type PageEvidence } from './page-evidence.js';
import { namingHeading } from './heading-words.js';
import { partitionPages, partitionValues } from './partitions.js';
import { readPageCues, type PageCues } from './page-cues.js';
import {
  blendedBoundaryCosts,
  DEEP_SEGMENT_COSTS,
  FULLER_CHANGE_SHARE,
  FULLER_READING_SHARE,
  LENT_START_LOG_ODDS,
  LENT_VOTE_MAJORITY,
  LENT_VOTE_WEIGHT,
  lendFullerVotes,
  SEGMENT_COSTS,
  UNSURE_MARGIN,
  type SegmentCosts,
} from './segments.js';
import {
  reviseUnsureSegments,
  segmentReadings,
  segmentSections,
  type SegmentReading,
} from './segment-cut.js';
import {
  accurateWholeReader,
  cutReader,
  cutWhereWholeReadingsDiffer,
  WHOLE_CUT_LOG_ODDS,
  WHOLE_READING_SHARE,
  type WholeReader,
} from './whole-documents.js';
import { pageText, type LayoutDocument, type LayoutPage } from '../parse/layout.types.js';
import type { DeepSplitEngine } from '../versions/engines.js';
import {
  assignEachPage,
  assignSections,
  segmentInputs,
  segmentPages,
  type Assignment,
  type WeighedReading,
} from './assignments.js';

export { assignEachPage, segmentPages, type Assignment, type WeighedReading };

/** A `split_description` entry (reductoai SplitCategory). */
export interface SplitSection {
  name: string;
  description: string;
  partition_key?: string | null;
}

type Confidence = 'high' | 'low';

export interface SplitResult {
  section_mapping: Record<string, number[]> | null;
  splits: {
    name: string;
    pages: number[];
    conf: Confidence;
    partitions: { name: string; pages: number[]; conf: Confidence }[] | null;
  }[];
}

interface DeepSplitPage {
  page_number: number;
  evidence: string;
  confidence: 'high' | 'medium' | 'low';
}

export interface DeepSplitResult {
  splits: {
    name: string;
    pages: DeepSplitPage[];
    partitions: { name: string; pages: DeepSplitPage[] }[] | null;
  }[];
}

/** A page read alone: its sections' probabilities, its evidence and its cues. */
export interface PageScore {
  page: LayoutPage;
  /** Each section's probability for the page alone. */
  scores: number[];
  best: number;
  /** The line that best shows the page belongs to the best section. */
  evidence: string;
  headingMatch: boolean;
  /** The page has evidence of its own (a heading naming a section, or a criterion met). */
  supported: boolean;
  /** What the page shows of its document apart from its words (segments.ts). */
  cues: PageCues;
}

/** What split reads of a document's pages, each alone, before they are cut into documents. */
export interface SplitReading {
  scored: PageScore[];
  evidence: PageEvidence[];
  /** How well each statement of each section tells it from the others (segments.ts). */
  statementWeights: number[][] | null;
}

/** Each page's own evidence for each section (Deep Split reads more of each page). */
export function readSplitPages(
  document: LayoutDocument,
  sections: readonly SplitSection[],
  deep: boolean,
): SplitReading {
  const evidence = readPageEvidence(document.pages.map(pageText), sections, deep);
  const scored = document.pages.map((page, i): PageScore => {
    const heading = namingHeading(page, sections);
    const { probabilities, supported, passage } = evidence[i];
    const best = heading?.section ?? probabilities.indexOf(Math.max(...probabilities));
    return {
      page,
      scores: probabilities,
      best,
      evidence: heading?.line ?? passage,
      headingMatch: heading !== undefined,
      supported: heading !== undefined || supported,
      cues: readPageCues(page),
    };
  });
  return { scored, evidence, statementWeights: distinctStatementWeights(sections) };
}

/**
 * Deep Split's readings: the default reading and each page read fully (more passages and
 * single lines, so a document's segment sees more of it), the latter's own vote taken from
 * both (the geometric mean of the two probabilities: the fuller reading alone finds more
 * stray matches on a page, which cut documents in pieces). A page has evidence of its own
 * when either reading finds it, which places more pages; but among the fuller reading's many
 * single lines one often rates a section high on a page that fits none (an invoice page for
 * "poem"), so a page the default reading finds no evidence on is never rated above `low`
 * (assignDeepSplit).
 */
function readDeepSplitPages(
  document: LayoutDocument,
  sections: readonly SplitSection[],
): { fast: SplitReading; both: SplitReading } {
  const fast = readSplitPages(document, sections, false);
  return { fast, both: bothReadings(fast, readSplitPages(document, sections, true)) };
}

/** Deep Split's reading from the default and the fuller reading of the same pages. */
export function bothReadings(fast: SplitReading, deep: SplitReading): SplitReading {
  return {
    statementWeights: deep.statementWeights,
    scored: deep.scored.map((s, i) => ({
      ...s,
      supported: s.supported || fast.scored[i].supported,
    })),
    evidence: deep.evidence.map((e, i) => {
      const both = e.probabilities.map((p, k) => Math.sqrt(p * fast.evidence[i].probabilities[k]));
      const total = both.reduce((sum, value) => sum + value, 0) || 1;
      return {
        ...e,
        probabilities: both.map((value) => value / total),
        fullerProbabilities: e.probabilities,
      };
    }),
  };
}

/**
 * Every page to the section of the document it belongs to (segments.ts): the pages are cut
 * into documents and each document is read whole. A page whose own evidence names its
 * section keeps that evidence; any other page continues its document's section.
 */
export function assignBySegments(
  reading: SplitReading,
  costs: SegmentCosts = SEGMENT_COSTS,
): Assignment[] {
  return assignSections(
    reading,
    segmentSections(segmentPages(reading), costs, reading.statementWeights),
  );
}

/**
 * Every page to its section by the cut over several readings of the pages (segmentReadings):
 * the first reading's boundaries, each segment scored by all of them at their shares; the
 * last reading says what each page's own evidence is.
 */
export function assignByReadings(readings: readonly WeighedReading[]): Assignment[] {
  const sections = segmentReadings(segmentInputs(readings));
  return assignSections(readings[readings.length - 1].reading, sections);
}

/**
 * Deep Split's cut: the default's (its reading, weights and boundary model), where a page the
 * default reading finds no evidence on votes with the fuller reading's (lendFullerVotes), the
 * boundaries read in both readings (blendedBoundaryCosts), and each document the default
 * reading is unsure of (UNSURE_MARGIN) decided again by both readings pooled, the fuller one
 * at FULLER_READING_SHARE (reviseUnsureSegments). The fuller reading reads whole business
 * documents worse, so it never overturns a sure decision.
 */
export function assignDeepSplit(
  fast: SplitReading,
  both: SplitReading,
  fullerCosts: SegmentCosts = DEEP_SEGMENT_COSTS,
  defaultCosts: SegmentCosts = SEGMENT_COSTS,
  lent = { weight: LENT_VOTE_WEIGHT, majority: LENT_VOTE_MAJORITY },
  changeShare = FULLER_CHANGE_SHARE,
  lentStart = LENT_START_LOG_ODDS,
): Assignment[] {
  const readings = deepReadings(
    fast,
    both,
    fullerCosts,
    defaultCosts,
    lent,
    changeShare,
    lentStart,
  );
  return deepAssignments(fast, both, reviseUnsureSegments(readings, UNSURE_MARGIN));
}

/** The two readings of Deep Split's cut (assignDeepSplit): the default one first. */
function deepReadings(
  fast: SplitReading,
  both: SplitReading,
  fullerCosts: SegmentCosts,
  defaultCosts: SegmentCosts,
  lent: { weight: number; majority: number },
  changeShare: number,
  lentStart: number,
): SegmentReading[] {
  const [first, second] = segmentInputs([
    { reading: fast, costs: defaultCosts, share: 1 },
    { reading: both, costs: fullerCosts, share: FULLER_READING_SHARE },
  ]);
  const fuller = both.scored.map((s, i) => ({
    supported: s.supported,
    probabilities: both.evidence[i].fullerProbabilities,
  }));
  const pages = lendFullerVotes(first.pages, fuller, lent.weight, lent.majority);
  const vectors = second.pages.map((page) => page.vector);
  const boundaryCosts = blendedBoundaryCosts(
    pages,
    vectors,
    changeShare,
    defaultCosts,
    first.pages,
    lentStart,
  );
  return [{ ...first, pages, boundaryCosts }, second];
}

/**
 * Deep Split's cut (assignDeepSplit) with each run of pages it gives one section read again
 * as whole documents where the cues say one may begin inside it, the cut's own reading of
 * each side pooled with the classifier's (cutWhereWholeReadingsDiffer).
 */
export function assignDeepSplitWhole(
  fast: SplitReading,
  both: SplitReading,
  readWhole: WholeReader,
  share = WHOLE_READING_SHARE,
  minLogOdds = WHOLE_CUT_LOG_ODDS,
): Assignment[] {
  const lent = { weight: LENT_VOTE_WEIGHT, majority: LENT_VOTE_MAJORITY };
  const readings = deepReadings(
    fast,
    both,
    DEEP_SEGMENT_COSTS,
    SEGMENT_COSTS,
    lent,
    FULLER_CHANGE_SHARE,
    LENT_START_LOG_ODDS,
  );
  const cut = reviseUnsureSegments(readings, UNSURE_MARGIN);
  const sections = cutWhereWholeReadingsDiffer(
    cut,
    segmentPages(fast),
    cutReader(readings),
    readWhole,
    share,
    minLogOdds,
  );
  return deepAssignments(fast, both, sections);
}

/** Deep Split's assignments: a page the default reading finds no evidence on is never above low. */
function deepAssignments(
  fast: SplitReading,
  both: SplitReading,
  sections: readonly number[],
): Assignment[] {
  return assignSections(both, sections).map((a, i) =>
    fast.scored[i].supported ? a : { ...a, confidence: 'low' },
  );
}

/**
 * The first reading's cut with the segments it is unsure of decided again by all the
 * readings pooled (reviseUnsureSegments).
 */
export function reviseUnsure(readings: readonly WeighedReading[], margin: number): Assignment[] {
  const sections = reviseUnsureSegments(segmentInputs(readings), margin);
  return assignSections(readings[readings.length - 1].reading, sections);
}

function check(sections: readonly SplitSection[]): void {
  if (sections.length === 0) throw new Error('split_description must not be empty');
}

/**
 * Split: each page to the section it shows evidence for; pages without continue the last.
 * Pages are read as `readableDocument` gives them: values compare whatever their script.
 */
export function splitDocument(
  printed: LayoutDocument,
  sections: readonly SplitSection[],
): SplitResult {
  check(sections);
  const { document } = readableDocument(printed);
  const assignments = assignBySegments(readSplitPages(document, sections, false));
  const splits = sections.map((section, index) => {
    const mine = assignments.filter((a) => a.section === index);
    const pages = mine.map((a) => a.page);
    const conf: Confidence =
      mine.length > 0 && mine.every((a) => a.confidence !== 'low') ? 'high' : 'low';
    const partitions = section.partition_key
      ? partitionPages(pages, partitionValues(document, section.partition_key)).map((p) => ({
          ...p,
          conf,
        }))
      : null;
    return { name: section.name, pages, conf, partitions };
  });
  return {
    section_mapping: Object.fromEntries(splits.map((s) => [s.name, s.pages])),
    splits,
  };
}

/**
 * Deep split: per-page evidence read more fully (more passages per page), reported for
 * every page. `page-evidence-continuity` cuts the pages into documents as the default split
 * does, the fuller reading pooled in, runs read again whole (assignDeepSplitWhole);
 * `page-evidence` judges each page alone and leaves out pages without evidence.
 */
export function deepSplitDocument(
  printed: LayoutDocument,
  sections: readonly SplitSection[],
  engine: DeepSplitEngine,
): DeepSplitResult {
  check(sections);
  const { document } = readableDocument(printed);
  const continuity = engine === 'page-evidence-continuity';
  const readings = continuity ? readDeepSplitPages(document, sections) : undefined;
  const assignments = readings
    ? assignDeepSplitWhole(
        readings.fast,
        readings.both,
        accurateWholeReader(document.pages, sections),
      )
    : assignEachPage(readSplitPages(document, sections, true));
  const toPage = (a: Assignment): DeepSplitPage => ({
    page_number: a.page,
    evidence: a.evidence,
    confidence: a.confidence,
  });
  return {
    splits: sections.map((section, index) => {
      const mine = assignments.filter((a) => a.section === index);
      let partitions: DeepSplitResult['splits'][number]['partitions'] = null;
      if (section.partition_key) {
        const byPage = new Map(mine.map((a) => [a.page, a]));
        partitions = partitionPages(
          mine.map((a) => a.page),
          partitionValues(document, section.partition_key),
        ).map((p) => ({
          name: p.name,
          pages: p.pages.map((n) => toPage(byPage.get(n) as Assignment)),
        }));
      }
      return { name: section.name, pages: mine.map(toPage), partitions };
    }),
  };
}
