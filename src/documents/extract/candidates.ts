/**
 * Label-value candidates read off a document's layout: "Label: value" on a line, label and
 * value in two columns, a value under its label, a header over the cell below it, and (for
 * deep extract) "Label value" with no separator. Each candidate keeps where it was read.
 */
import type { BoundingBox, LayoutDocument, LayoutLine } from '../parse/layout.types.js';
import { roundBox } from '../parse/layout.types.js';
import { currencyOf } from './currency-table.js';
import { lineCitation, type Citation } from './citation.js';
import { findDates } from './dates.js';

export type Relation = 'colon' | 'columns' | 'below' | 'header' | 'inline' | 'line';

export interface Candidate {
  label: string;
  value: string;
  relation: Relation;
  /** Index in the document's lines of the line the value is on. */
  lineIndex: number;
  citation: Citation;
  /** Further lines of a value that runs over several (an address). */
  more?: Citation[];
  /** Other numbers follow the value on its line (a totals row of a table). */
  crowded?: boolean;
}

/** A stretch of a line: a layout segment, or a run of text between wide spaces. */
export interface Cell {
  text: string;
  left: number;
  right: number;
}

const COLON = /^\s*([^:：]{1,60}?)\s*[:：]\s*(.*)$/u;
const MAX_LABEL_WORDS = 7;

/** The stretches of a line: its layout segments, split again at runs of 2+ spaces. */
export function cellsOf(line: LayoutLine): Cell[] {
  const cells: Cell[] = [];
  for (const segment of line.segments) {
    const parts = segment.text.split(/\s{3,}|\t+/).filter((p) => p.trim() !== '');
    if (parts.length <= 1) {
      if (segment.text.trim() !== '') cells.push({ ...segment, text: segment.text.trim() });
      continue;
    }
    // Positions of parts are estimated from character offsets within the segment.
    const width = segment.right - segment.left;
    let offset = 0;
    for (const part of parts) {
      const at = segment.text.indexOf(part, offset);
      offset = at + part.length;
      cells.push({
        text: part.trim(),
        left: segment.left + (width * at) / segment.text.length,
        right: segment.left + (width * offset) / segment.text.length,
      });
    }
  }
  return cells;
}

/** Letters each with a point, written as an initialism ("P.O.", "A.B.N."): a word. */
const DOTTED_INITIALISM = /(?<![\p{L}\p{N}])(?:\p{L}\.\s?){2,}/u;

/**
 * Text that can be a label: has a word (two letters in a row, or an initialism written with
 * points: "P.O. #"), is short, and is not itself a number or date.
 */
export function looksLikeLabel(text: string): boolean {
  const t = text.trim();
  if (!/\p{L}{2}/u.test(t) && !DOTTED_INITIALISM.test(t)) return false;
  if (/\S@\S+\.\p{L}|www\.|:\/\//iu.test(t)) return false;
  const words = t.split(/\s+/);
  if (words.length > MAX_LABEL_WORDS || t.length > 60) return false;
  const digits = (t.match(/\d/g) ?? []).length;
  return digits <= 2 || digits / t.length < 0.2;
}

function boxOf(line: LayoutLine, left: number, right: number): BoundingBox {
  return roundBox({
    left,
    top: line.bbox.top,
    width: Math.max(0, right - left),
    height: line.bbox.height,
    page: line.bbox.page,
  });
}

function cellCitation(line: LayoutLine, cell: Cell, type: Citation['type']): Citation {
  return { type, content: cell.text, bbox: boxOf(line, cell.left, cell.right) };
}

/** Horizontal overlap of two stretches, as a share of the narrower one. */
function overlap(a: { left: number; right: number }, b: { left: number; right: number }): number {
  const shared = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const narrower = Math.max(1e-6, Math.min(a.right - a.left, b.right - b.left));
  return shared / narrower;
}

/** The cell of `line` under `above` (overlapping it most), if any overlaps. */
function cellUnder(line: LayoutLine, above: Cell): Cell | undefined {
  let best: Cell | undefined;
  let bestOverlap = 0.2;
  for (const cell of cellsOf(line)) {
    const o = overlap(above, cell);
    if (o > bestOverlap) {
      best = cell;
      bestOverlap = o;
    }
  }
  return best;
}

/** Lines close below `index` on the same page (the next two, if near enough). */
function linesBelow(lines: LayoutLine[], index: number, count: number): number[] {
  const found: number[] = [];
  const line = lines[index];
  for (let k = index + 1; k < lines.length && found.length < count; k++) {
    const next = lines[k];
    if (next.bbox.page !== line.bbox.page) break;
    const gap = next.bbox.top - (line.bbox.top + line.bbox.height);
    if (gap > Math.max(0.06, line.bbox.height * 4)) break;
    found.push(k);
  }
  return found;
}

interface CandidateOptions {
  /** Also split lines into "label value" at each word (slower, noisier). */
  inline: boolean;
  /** How many lines under a label are looked at. */
  linesBelow: number;
  /** A value under its label may run over the lines below it (an address block). */
  multiLine: boolean;
}

/** Type sizes this far apart (a share of the larger) set two layout blocks apart. */
const BLOCK_SIZE_SPREAD = 0.25;

function sameTypeSize(a: LayoutLine, b: LayoutLine): boolean {
  return Math.abs(a.size - b.size) <= BLOCK_SIZE_SPREAD * Math.max(a.size, b.size);
}

/**
 * Up to four lines starting at `start` whose cells line up under `first` in the same size
 * of type (a block: a name in larger type over its address is two).
 */
function blockUnder(
  lines: LayoutLine[],
  start: number,
  first: Cell,
): { index: number; cell: Cell }[] {
  const block = [{ index: start, cell: first }];
  for (const next of linesBelow(lines, start, 3)) {
    const cell = cellUnder(lines[next], first);
    if (!cell || Math.abs(cell.left - first.left) > 0.02 || COLON.test(cell.text)) break;
    if (!sameTypeSize(lines[start], lines[next])) break;
    block.push({ index: next, cell });
  }
  return block;
}

/**
 * Whether a cell is the label of its own line's pair ("ADDRESS   :", "Name:"): a colon
 * ends it or comes next on the line. Such a cell under a label is the next key of a
 * key-value block, never the value of the label above it.
 */
function labelOfPair(line: LayoutLine, cell: Cell): boolean {
  const label = cell.text.replace(/\s*[:：]\s*$/u, '');
  if (label === cell.text) {
    const at = line.text.indexOf(cell.text);
    if (at < 0 || !/^\s*[:：]/u.test(line.text.slice(at + cell.text.length))) return false;
  }
  return looksLikeLabel(label);
}

/** A currency written as a code or a sign ("EUR", "€"): the unit of the figure before it. */
function currencyWord(word: string): boolean {
  return (word === word.toUpperCase() || /\p{Sc}/u.test(word)) && currencyOf(word) !== undefined;
}

/**
 * The labels of a cell followed on it by values with a shape, with no separator: runs of
 * words with no digit, each followed by its value, a word with a digit and any currency
 * written after it ("Invoice number INV-77", "Total 10.00 EUR", "Invoice 42 Total 10.00
 * EUR"). Every word belongs to a pair or the cell is none; a date written in words across
 * them ("Date 12 March 2024") is one value, not a series of pairs.
 */
function ownValues(text: string): { label: string; value: string }[] {
  const words = text.trim().split(/\s+/);
  const pairs: { label: string; value: string }[] = [];
  let label: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (!/\d/.test(words[i])) {
      label.push(words[i]);
      continue;
    }
    if (label.length === 0 || !looksLikeLabel(label.join(' '))) return [];
    let value = words[i];
    while (i + 1 < words.length && currencyWord(words[i + 1])) value += ` ${words[++i]}`;
    pairs.push({ label: label.join(' '), value });
    label = [];
  }
  if (label.length > 0) return [];
  if (
    pairs.length > 1 &&
    findDates(text).some((d) => /\s/u.test(text.slice(d.index, d.index + d.length)))
  )
    return [];
  return pairs;
}

/** Every label-value candidate of the document, in reading order. */
export function collectCandidates(
  document: LayoutDocument,
  options: CandidateOptions,
): { lines: LayoutLine[]; candidates: Candidate[] } {
  const lines = document.pages.flatMap((page) => page.lines);
  const candidates: Candidate[] = [];
  const push = (c: Candidate) => {
    if (c.value.trim() !== '' && c.label.trim() !== '') candidates.push(c);
  };
  lines.forEach((line, index) => {
    const cells = cellsOf(line);
    const whole = line.text.trim();
    const colon = COLON.exec(whole);
    // A line of several cells is read cell by cell below ("Qty: 2   9.00" is two cells).
    if (colon && cells.length <= 1 && looksLikeLabel(colon[1])) {
      push({
        label: colon[1],
        value: colon[2],
        relation: 'colon',
        lineIndex: index,
        citation: lineCitation(line, 'Key Value'),
      });
    }
    // Three or more cells that are all labels: a table's header row, not label-value pairs.
    const headerRow = cells.length >= 3 && cells.every((c) => looksLikeLabel(c.text));
    cells.forEach((cell, i) => {
      const cellColon = COLON.exec(cell.text);
      const label = cellColon ? cellColon[1] : cell.text.replace(/[:：]\s*$/, '');
      // "Invoice number INV-77" alone on its line is a label with its own value after it:
      // that value answers the label, and the line below belongs to its own label. Deep's
      // inline reading takes the line's first label; later ones ("Invoice 42 Total 10.00
      // EUR") only a series of pairs finds.
      const own = !cellColon && cells.length === 1 ? ownValues(cell.text) : [];
      if (own.length > 0) {
        if (!options.inline || own.length > 1)
          for (const pair of own)
            push({
              label: pair.label,
              value: pair.value,
              relation: 'inline',
              lineIndex: index,
              citation: lineCitation(line, 'Text'),
            });
        return;
      }
      if (!looksLikeLabel(label)) return;
      if (cellColon && cellColon[2].trim() !== '' && cells.length > 1) {
        push({
          label,
          value: cellColon[2],
          relation: 'colon',
          lineIndex: index,
          citation: cellCitation(line, cell, 'Key Value'),
        });
      }
      // "TL:RM   28.60": a currency alone after the colon is the unit of the next cell.
      const unit = cellColon && currencyOf(cellColon[2]) !== undefined ? cellColon[2].trim() : '';
      const labelOnly = !cellColon || cellColon[2].trim() === '' || unit !== '';
      // The value is the next cell; a cell of punctuation alone (":", "=") sits between.
      const next = /^[\s:：=\-–.]*$/u.test(cells[i + 1]?.text ?? '') ? i + 2 : i + 1;
      // "TOTAL   RM   86.00": a currency alone in the next cell is the unit of the one after.
      const last =
        unit === '' &&
        next + 1 < cells.length &&
        currencyOf(cells[next].text) !== undefined &&
        /\d/u.test(cells[next + 1].text)
          ? next + 1
          : next;
      if (labelOnly && next < cells.length && !headerRow) {
        const value = cells
          .slice(next, last + 1)
          .map((c) => c.text)
          .join(' ');
        push({
          label,
          value: unit === '' ? value : `${unit} ${value}`,
          relation: 'columns',
          lineIndex: index,
          citation: {
            type: 'Key Value',
            content: cells
              .slice(i, last + 1)
              .map((c) => c.text)
              .join(' '),
            bbox: boxOf(line, cell.left, cells[last].right),
          },
          // More numbers after the value: a table's totals row, one column of several.
          ...(cells.slice(last + 1).some((c) => /\d/.test(c.text)) ? { crowded: true } : {}),
        });
      }
      if (!labelOnly) return;
      // Label and value drawn on slightly different baselines (a scan's boxes): the value
      // is the next line's cell to the right of the label, at nearly the same height.
      const following = lines[index + 1];
      if (i === cells.length - 1 && following && following.bbox.page === line.bbox.page) {
        const offset = Math.abs(following.bbox.top - line.bbox.top);
        const right = cellsOf(following).find((c) => c.left >= cell.right - 0.005);
        if (right && offset < 0.6 * Math.max(line.bbox.height, following.bbox.height)) {
          push({
            label,
            value: right.text,
            relation: 'columns',
            lineIndex: index + 1,
            citation: cellCitation(following, right, 'Key Value'),
          });
        }
      }
      // The value under its label: the cell below that overlaps it.
      // A line of labels only is a table's header: its cells name columns, not values.
      const header =
        cells.length >= 3 || (cells.length >= 2 && cells.every((c) => looksLikeLabel(c.text)));
      for (const below of linesBelow(lines, index, options.linesBelow)) {
        const under = cellUnder(lines[below], cell);
        if (!under) continue;
        if (labelOfPair(lines[below], under)) break;
        if (options.multiLine && !header) {
          const block = blockUnder(lines, below, under);
          if (block.length > 1) {
            push({
              label,
              value: block.map((b) => b.cell.text).join('\n'),
              relation: 'below',
              lineIndex: below,
              citation: cellCitation(lines[below], under, 'Key Value'),
              more: block.slice(1).map((b) => cellCitation(lines[b.index], b.cell, 'Key Value')),
            });
          }
        }
        push({
          label,
          value: under.text,
          relation: header ? 'header' : 'below',
          lineIndex: below,
          citation: cellCitation(lines[below], under, header ? 'Table' : 'Key Value'),
        });
        break;
      }
    });
    if (options.inline && cells.length === 1 && !colon) {
      const words = whole.split(/\s+/);
      for (let k = 1; k < Math.min(words.length, MAX_LABEL_WORDS + 1); k++) {
        const label = words.slice(0, k).join(' ');
        if (!looksLikeLabel(label) || /\d/.test(label)) break;
        push({
          label,
          value: words.slice(k).join(' '),
          relation: 'inline',
          lineIndex: index,
          citation: lineCitation(line, 'Text'),
        });
      }
    }
  });
  return { lines, candidates };
}
