/**
 * Deep Split's last look at its cut: a run of pages it gives one section may still hold two
 * documents whose boundary the page evidence did not see (a manual absorbed by the poster
 * before it, a cover letter and a datasheet taken by the slide deck after them): the cut's
 * reading of a segment is the best evidence of its pages, which a long or strongly worded
 * document lends to its neighbour. Where the pages' cues say a document may begin inside a
 * run, each side is read as one whole document twice: by the cut's own segment reading, and
 * by the accurate classifier (its passages across the pages, as a classify request reads a
 * document). The two opinions are pooled (probabilities averaged, the classifier's at
 * WHOLE_READING_SHARE), and where the two sides then read as different sections, the run is
 * cut there and each side takes its own. The classifier alone reads whole documents worse
 * than the cut does (more business documents given another section), so it only adds to
 * what the cut's reading says; a run whose sides read alike stays as it was.
 */
import { classify } from '../classify/classify.js';
import type { ClassificationCategory, PageText } from '../classify/classify.types.js';
import type { LayoutPage } from '../parse/layout.types.js';
import { pageText } from '../parse/layout.types.js';
import { probabilities } from '../classify/fusion.js';
import { statementsOf } from './page-evidence.js';
import { segmentScores, type SegmentReading } from './segment-cut.js';
import { boundaryCost, boundaryLogOdds, SEGMENT_COSTS, type SegmentPage } from './segments.js';

/**
 * The classifier's share beside the cut's segment reading (1) when the sides of a run are
 * read whole. Chosen on the generated development bundles (`npm run bench:split-eval --
 * --generated --whole`, docs/decisions/0538-deep-split-reads-the-sides-of-a-run-whole.md): the
 * largest share that lowers no fold of either set on two generations of bundles (at 1 the
 * classifier gives business documents another section).
 */
export const WHOLE_READING_SHARE = 0.75;
/**
 * The boundary log-odds (BOUNDARY_MODEL over the default reading's pages) above which a page
 * inside a run is a place to read its two sides whole: a document more likely begins there
 * than not. Chosen with WHOLE_READING_SHARE.
 */
export const WHOLE_CUT_LOG_ODDS = 0;
/** The likeliest places of a run read whole, at most (each costs two classifications). */
export const WHOLE_CUT_CANDIDATES = 3;

/** Each section's probability for pages [start, end) read as one whole document. */
export type WholeReader = (start: number, end: number) => readonly number[];

/** Runs of consecutive pages given one section: [start, end) each. */
function runsOf(sections: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (let start = 0; start < sections.length;) {
    let end = start + 1;
    while (end < sections.length && sections[end] === sections[start]) end++;
    runs.push([start, end]);
    start = end;
  }
  return runs;
}

function best(values: readonly number[]): number {
  return values.indexOf(Math.max(...values));
}

/**
 * `sections` with each run cut at the likeliest place (by the boundary model's log-odds,
 * above `minLogOdds`, among `candidates`, where a document may start at all) whose two
 * sides read as different sections by `readCut` and `readWhole` pooled (the latter at
 * `share`), each side given its own.
 */
export function cutWhereWholeReadingsDiffer(
  sections: readonly number[],
  pages: readonly SegmentPage[],
  readCut: WholeReader,
  readWhole: WholeReader,
  share = WHOLE_READING_SHARE,
  minLogOdds = WHOLE_CUT_LOG_ODDS,
  candidates = WHOLE_CUT_CANDIDATES,
): number[] {
  const pooled = (start: number, end: number) => {
    const whole = readWhole(start, end);
    return best(readCut(start, end).map((p, k) => p + share * (whole[k] ?? 0)));
  };
  const revised = [...sections];
  for (const [start, end] of runsOf(sections)) {
    const places = Array.from({ length: end - start - 1 }, (_, k) => start + k + 1)
      .filter((i) => boundaryCost(pages, i, SEGMENT_COSTS) !== Infinity)
      .map((i) => ({ i, odds: boundaryLogOdds(pages, i) }))
      .filter(({ odds }) => odds > minLogOdds)
      .sort((a, b) => b.odds - a.odds)
      .slice(0, candidates);
    for (const { i } of places) {
      const [before, after] = [pooled(start, i), pooled(i, end)];
      if (before === after) continue;
      revised.fill(before, start, i);
      revised.fill(after, i, end);
      break;
    }
  }
  return revised;
}

/**
 * The cut's own reading of pages [start, end) as one segment (segmentScores over its readings
 * pooled, a log-probability per page) as each section's probability.
 */
export function cutReader(readings: readonly SegmentReading[]): WholeReader {
  return (start, end) => probabilities(segmentScores(readings, start, end), 1);
}

/** A split section as the classifier reads a category: its name and its description. */
export interface DescribedSection {
  name: string;
  description: string;
}

/**
 * Reads pages [start, end) of `pages` as one document with the accurate classifier, the
 * sections as its categories (each description's statements its criteria, as the page
 * reading takes them): each section's calibrated confidence. Remembers each answer.
 */
export function accurateWholeReader(
  pages: readonly LayoutPage[],
  sections: readonly DescribedSection[],
): WholeReader {
  // Section names are distinct (a request naming one twice is refused): a category each.
  const schema: ClassificationCategory[] = sections.map((section) => ({
    category: section.name,
    criteria: statementsOf(section.description),
  }));
  const read = new Map<string, number[]>();
  return (start, end) => {
    const key = `${start}:${end}`;
    const known = read.get(key);
    if (known) return known;
    const texts: PageText[] = pages.slice(start, end).map((page) => ({
      text: pageText(page),
      size: page.dimensions && { ...page.dimensions, unit: 'pt' },
    }));
    const output = classify({ pages: texts, classificationSchema: schema, model: 'accurate' });
    const confidences = output.response_confidence.categories.map((c) => c.confidence);
    read.set(key, confidences);
    return confidences;
  };
}
