import bidiModule from 'bidi-js';
import { isRightToLeft, strongCounts } from '../readers/text-direction.js';

// bidi-js is CommonJS: its module.exports is the factory its types call the default export.
const bidiFactory = bidiModule as unknown as typeof bidiModule.default;
const bidi = bidiFactory();

export { isRightToLeft };

/** A piece of a line as placed on the page: its text in reading order and its extent. */
export interface PlacedRun {
  text: string;
  x: number;
  width: number;
}

/** A line's run in reading order, with the gap on the page that parts it from the one before. */
export interface OrderedRun<R extends PlacedRun> {
  run: R;
  /** Page distance to the previous run in reading order (-Infinity for the first). */
  gap: number;
  /** True where the letters on either side of that gap run in opposite directions. */
  directionChange: boolean;
}

/**
 * A line's runs (in any order) in reading order. A left-to-right line reads its runs from
 * left to right. A right-to-left line reads them as the Unicode bidirectional algorithm
 * orders them: each run's level is resolved over the line's text in a right-to-left
 * paragraph, and the runs are reordered by rule L2, so runs of Latin words or numbers
 * keep their own left-to-right order inside a line read from right to left. The run's
 * own text is already in reading order (pdf.js's). A gap of `cellGap` or wider parts two
 * cells: it stands for a tab, a segment separator read at the line's own level (rule L1),
 * so cells of numbers or Latin words side by side are still read from the right, each on
 * its own, not as one left-to-right phrase.
 */
export function readingOrder<R extends PlacedRun>(
  runs: readonly R[],
  spaceWidth: number,
  cellGap = Infinity,
): { rightToLeft: boolean; runs: OrderedRun<R>[] } {
  const visual = [...runs].sort((a, b) => a.x - b.x);
  if (!isRightToLeft(visual.map((run) => run.text).join(' '))) {
    const ordered = visual.map((run, i) => ({
      run,
      gap: i === 0 ? -Infinity : run.x - (visual[i - 1].x + visual[i - 1].width),
      directionChange: false,
    }));
    return { rightToLeft: false, runs: ordered };
  }
  const levels = runLevels(visual, spaceWidth, cellGap);
  // Between two runs of the line lies a neutral stretch: the space the gap stands for,
  // at the lower of the two runs' levels (rules N1 and N2), or a cell's tab at the line's.
  const tokens: { level: number; index: number; separator: boolean }[] = [];
  visual.forEach((run, i) => {
    if (i > 0) {
      const level =
        cellGap <= gapBetween(visual[i - 1], run)
          ? RIGHT_TO_LEFT_LINE
          : Math.min(levels[i - 1], levels[i]);
      tokens.push({ level, index: i, separator: true });
    }
    tokens.push({ level: levels[i], index: i, separator: false });
  });
  reorder(tokens);
  const ordered: OrderedRun<R>[] = [];
  let separator: number | undefined;
  for (const token of tokens) {
    if (token.separator) {
      separator = token.index;
      continue;
    }
    const run = visual[token.index];
    if (separator === undefined) {
      ordered.push({ run, gap: -Infinity, directionChange: false });
      continue;
    }
    const left = visual[separator - 1];
    const right = visual[separator];
    ordered.push({
      run,
      gap: right.x - (left.x + left.width),
      directionChange: oppositeLetters(
        lettersOf(levels[separator - 1], left),
        lettersOf(levels[separator], right),
      ),
    });
    separator = undefined;
  }
  return { rightToLeft: true, runs: ordered };
}

/** The embedding level of a right-to-left line (its paragraph level). */
const RIGHT_TO_LEFT_LINE = 1;

/** The page distance from `left`'s right end to `right`'s start. */
function gapBetween(left: PlacedRun, right: PlacedRun): number {
  return right.x - (left.x + left.width);
}

/**
 * Each run's embedding level in a right-to-left paragraph made of the runs left to right,
 * a space between two runs only where a gap wider than `spaceWidth` parts them (so "1403",
 * "/", "09" drawn apart still read as one number): the lowest level of its characters (a
 * run holding right-to-left letters is read as right-to-left; Latin words and numbers rise
 * to the level above). A gap of `cellGap` or wider is a tab.
 */
function runLevels(visual: readonly PlacedRun[], spaceWidth: number, cellGap: number): number[] {
  const starts: number[] = [];
  let text = '';
  visual.forEach((run, i) => {
    const previous = visual[i - 1];
    const gap = previous ? gapBetween(previous, run) : -Infinity;
    if (gap >= cellGap) text += '\t';
    else if (gap > spaceWidth) text += ' ';
    starts.push(text.length);
    text += run.text;
  });
  const { levels } = bidi.getEmbeddingLevels(text, 'rtl');
  return visual.map((run, i) => {
    let lowest = Infinity;
    for (let j = 0; j < run.text.length; j++) {
      if (!/\s/.test(run.text[j])) lowest = Math.min(lowest, levels[starts[i] + j]);
    }
    return Number.isFinite(lowest) ? lowest : 1;
  });
}

/**
 * 'rtl' or 'ltr' for a run holding letters of that direction (by its level), '' for one of
 * digits and signs only: a word never runs on from letters of one direction into the other.
 */
function lettersOf(level: number, run: PlacedRun): string {
  if (level % 2 === 1) return strongCounts(run.text).rtl > 0 ? 'rtl' : '';
  return strongCounts(run.text).ltr > 0 ? 'ltr' : '';
}

function oppositeLetters(left: string, right: string): boolean {
  return left !== '' && right !== '' && left !== right;
}

/**
 * Rule L2 of the bidirectional algorithm, from visual order to reading order (its own
 * inverse): from the highest level down to the lowest odd one, every maximal sequence at
 * that level or above is reversed.
 */
function reorder<T extends { level: number }>(items: T[]): void {
  const highest = Math.max(...items.map((item) => item.level));
  const lowestOdd = Math.min(...items.map((item) => item.level | 1));
  for (let level = highest; level >= lowestOdd; level--) {
    let start = 0;
    while (start < items.length) {
      if (items[start].level < level) {
        start++;
        continue;
      }
      let end = start;
      while (end + 1 < items.length && items[end + 1].level >= level) end++;
      items.splice(start, end - start + 1, ...items.slice(start, end + 1).reverse());
      start = end + 1;
    }
  }
}
