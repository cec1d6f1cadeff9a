/**
 * The cut of a bundle's pages into documents and each document's section (segments.ts says
 * what it costs and why): dynamic programming over every cut, each segment scored by one
 * reading of its pages or several pooled as opinions.
 */
import type { CategoryEvidence, CriterionEvidence } from '../classify/evidence.js';
import { categoryScore, probabilities } from '../classify/fusion.js';
import { boundaryCost, SEGMENT_COSTS, type SegmentCosts, type SegmentPage } from './segments.js';

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

/** One reading of the pages as the cut counts it: its weights and its share of the score. */
export interface SegmentReading {
  pages: readonly SegmentPage[];
  costs: SegmentCosts;
  statementWeights: readonly (readonly number[])[] | null;
  /** Its share of each segment's score beside the other readings'. */
  share: number;
  /**
   * The cost of a new segment at each page (index 0 unused), where a reading's boundaries are
   * read otherwise than by boundaryCost over its pages; only the first reading's count.
   */
  boundaryCosts?: readonly number[];
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
  return segmentReadings([{ pages, costs, statementWeights, share: 1 }]);
}

/** A segment's section probabilities under one reading, grown a page at a time. */
class SegmentReader {
  private merged: CategoryEvidence[] = [];

  constructor(private readonly reading: SegmentReading) {}

  /** Adds page `end` and returns each section's probability for the segment so far. */
  grow(end: number): number[] {
    const { pages, costs, statementWeights } = this.reading;
    const page = pages[end];
    this.merged =
      this.merged.length === 0
        ? [...page.sections]
        : this.merged.map((s, k) => mergeEvidence(s, page.sections[k]));
    const second = costs.distinctWeight > 0 ? statementWeights : null;
    return probabilities(
      this.merged.map(
        (evidence, k) =>
          categoryScore(evidence) +
          (second ? costs.distinctWeight * categoryScore(evidence, second[k]) : 0),
      ),
      costs.temperature,
    );
  }
}

/**
 * A segment's score for each section over one or more readings of its pages, pooled as
 * opinions: its section probabilities, each page's own and the segment's pooled vote are the
 * readings' probabilities averaged at their shares (a reading sure of a section adds to it;
 * one reading alone cannot rule a section out). The first reading's page, pooled and
 * named-elsewhere weights count; each reading's temperature and second reading its own.
 * Grown a page at a time from `start`.
 */
class PooledSegment {
  private readonly readers: SegmentReader[];
  private readonly namedCost: Float64Array;
  private readonly pageSum: Float64Array;
  private readonly pageTotal: Float64Array;
  private readonly total: number;
  length = 0;

  constructor(
    private readonly readings: readonly SegmentReading[],
    private readonly count: number,
  ) {
    this.readers = readings.map((reading) => new SegmentReader(reading));
    this.namedCost = new Float64Array(count);
    this.pageSum = new Float64Array(count);
    this.pageTotal = new Float64Array(count);
    this.total = readings.reduce((sum, r) => sum + r.share, 0) || 1;
  }

  /** Adds page `end`; each section's score of the segment so far. */
  grow(end: number): Float64Array {
    const [first] = this.readings;
    const { costs } = first;
    const mix = (values: readonly (readonly number[])[], k: number) =>
      this.readings.reduce((sum, r, j) => sum + (r.share / this.total) * values[j][k], 0);
    const chances = this.readers.map((reader) => reader.grow(end));
    const own = this.readings.map((r) => r.pages[end].pageProbabilities);
    const named = first.pages[end].namedSection;
    const length = ++this.length;
    const values = new Float64Array(this.count);
    for (let k = 0; k < this.count; k++) {
      const page = mix(own, k);
      this.pageSum[k] += Math.log(page + 1e-9);
      this.pageTotal[k] += page;
      if (named !== undefined && k !== named) this.namedCost[k] += costs.namedElsewhere;
      values[k] =
        length * Math.log(mix(chances, k) + 1e-9) +
        costs.pageWeight * this.pageSum[k] +
        (costs.pooledWeight > 0
          ? costs.pooledWeight * length * Math.log(this.pageTotal[k] / length + 1e-9)
          : 0) -
        this.namedCost[k];
    }
    return values;
  }
}

/**
 * The cut (segmentSections) over one or more readings of the same pages (PooledSegment);
 * a new segment costs what the first reading's boundary says.
 */
export function segmentReadings(readings: readonly SegmentReading[]): number[] {
  const [first] = readings;
  const n = first.pages.length;
  if (n === 0) return [];
  const count = first.pages[0].sections.length;
  const costAt = (i: number) =>
    first.boundaryCosts?.[i] ?? boundaryCost(first.pages, i, first.costs);
  // best[b]: score of the best cut of pages 0..b-1; from[b]: start and section of its last segment.
  const best = new Float64Array(n + 1).fill(-Infinity);
  const from: { start: number; section: number }[] = new Array(n + 1);
  best[0] = 0;
  for (let start = 0; start < n; start++) {
    const entry = best[start] - (start > 0 ? costAt(start) : 0);
    if (entry === -Infinity) continue;
    const segment = new PooledSegment(readings, count);
    for (let end = start; end < n; end++) {
      const values = segment.grow(end);
      for (let k = 0; k < count; k++) {
        if (entry + values[k] > best[end + 1]) {
          best[end + 1] = entry + values[k];
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

/**
 * The first reading's cut, with the section of each segment it is unsure of decided again
 * by all the readings pooled: a segment whose best section leads the next by less than
 * `margin` per page (log-probability) under the first reading alone. Its boundaries stay.
 */
export function reviseUnsureSegments(
  readings: readonly SegmentReading[],
  margin: number,
): number[] {
  const [first] = readings;
  const sections = segmentReadings([first]);
  const count = first.pages[0]?.sections.length ?? 0;
  for (let start = 0; start < sections.length;) {
    let end = start;
    while (end + 1 < sections.length && sections[end + 1] === sections[start]) end++;
    const alone = new PooledSegment([first], count);
    const pooled = new PooledSegment(readings, count);
    let own: Float64Array = new Float64Array(count);
    let all: Float64Array = new Float64Array(count);
    for (let i = start; i <= end; i++) [own, all] = [alone.grow(i), pooled.grow(i)];
    const [top, next] = [...own].sort((a, b) => b - a);
    if (next !== undefined && (top - next) / (end - start + 1) < margin) {
      const section = all.indexOf(Math.max(...all));
      for (let i = start; i <= end; i++) sections[i] = section;
    }
    start = end + 1;
  }
  return sections;
}

/**
 * Each section's score for pages [start, end) read as one segment over the readings pooled
 * (PooledSegment), as the cut scores a segment: per page, a log-probability.
 */
export function segmentScores(
  readings: readonly SegmentReading[],
  start: number,
  end: number,
): number[] {
  const count = readings[0].pages[0]?.sections.length ?? 0;
  const segment = new PooledSegment(readings, count);
  let values: Float64Array = new Float64Array(count);
  for (let i = start; i < end; i++) values = segment.grow(i);
  return [...values].map((value) => value / Math.max(1, end - start));
}
