import { alignedColumns } from '../parse/layout.engines.js';
import type { LayoutDocument, LayoutLine } from '../parse/layout.types.js';
import { roundBox } from '../parse/layout.types.js';
import { lineCitation, type Citation } from './citation.js';
import { normalize } from './text-match.js';

/** A "label: value" pair found on the page. */
export interface KeyValue {
  label: string;
  normalizedLabel: string;
  value: string;
  citations: Citation[];
  /** Index of the label's line in `lines`. */
  lineIndex: number;
  /** The value came from the line(s) after the label. */
  nextLine: boolean;
}

export interface TableCell {
  text: string;
  citation: Citation;
}

export interface FoundTable {
  page: number;
  /** The header line (its column positions) and the index of the table's last line. */
  headerLine: LayoutLine;
  lastLine: number;
  header: TableCell[];
  rows: TableCell[][];
}

/** Lines of the whole document in reading order, tagged with their page. */
export interface DocumentEvidence {
  lines: LayoutLine[];
  keyValues: KeyValue[];
  tables: FoundTable[];
}

const COLON_PAIR = /^\s*([^:：]{1,60}?)\s*[:：]\s*(.*)$/;

function looksLikeLabel(text: string): boolean {
  const words = normalize(text).split(' ').filter(Boolean);
  return words.length >= 1 && words.length <= 6 && !/^\d+([.,]\d+)?$/.test(text.trim());
}

function keyValuesOf(lines: LayoutLine[], tableLines: Set<number>): KeyValue[] {
  const pairs: KeyValue[] = [];
  lines.forEach((line, index) => {
    if (tableLines.has(index)) return;
    const colon = COLON_PAIR.exec(line.text);
    if (colon && looksLikeLabel(colon[1])) {
      const label = colon[1];
      const inline = colon[2].trim();
      const next = lines[index + 1];
      const useNext = inline === '' && next !== undefined && !COLON_PAIR.test(next.text);
      pairs.push({
        label,
        normalizedLabel: normalize(label),
        value: useNext ? next.text.trim() : inline,
        citations: [lineCitation(useNext ? next : line, 'Key Value')],
        lineIndex: index,
        nextLine: useNext,
      });
      return;
    }
    // Label and value drawn in two columns ("Invoice Number      INV-1001").
    if (line.segments.length === 2 && looksLikeLabel(line.segments[0].text)) {
      const label = line.segments[0].text.replace(/[:：]\s*$/, '');
      pairs.push({
        label,
        normalizedLabel: normalize(label),
        value: line.segments[1].text.trim(),
        citations: [lineCitation(line, 'Key Value')],
        lineIndex: index,
        nextLine: false,
      });
    }
  });
  return pairs;
}

export function cellsOf(line: LayoutLine): TableCell[] {
  return line.segments.map((segment) => ({
    text: segment.text.trim(),
    citation: {
      type: 'Table',
      content: segment.text.trim(),
      bbox: roundBox({
        left: segment.left,
        top: line.bbox.top,
        width: segment.right - segment.left,
        height: line.bbox.height,
        page: line.bbox.page,
      }),
    },
  }));
}

/** Runs of at least 3 lines of 3+ aligned columns, or 2+ lines of 2 columns with a header. */
function tablesOf(lines: LayoutLine[]): { tables: FoundTable[]; tableLines: Set<number> } {
  const tables: FoundTable[] = [];
  const tableLines = new Set<number>();
  let i = 0;
  while (i < lines.length) {
    const head = lines[i];
    if (head.segments.length < 2) {
      i++;
      continue;
    }
    let end = i + 1;
    while (
      end < lines.length &&
      lines[end].bbox.page === head.bbox.page &&
      alignedColumns(head, lines[end])
    ) {
      end++;
    }
    const minRows = head.segments.length >= 3 ? 2 : 3;
    if (end - i >= minRows) {
      tables.push({
        page: head.bbox.page,
        headerLine: head,
        lastLine: end - 1,
        header: cellsOf(head),
        rows: lines.slice(i + 1, end).map(cellsOf),
      });
      // Two-column runs are as often label/value lists as tables: keep them for both.
      if (head.segments.length >= 3) for (let k = i; k < end; k++) tableLines.add(k);
      i = end;
    } else {
      i++;
    }
  }
  return { tables, tableLines };
}

export function collectEvidence(document: LayoutDocument): DocumentEvidence {
  const lines = document.pages.flatMap((page) => page.lines);
  const { tables, tableLines } = tablesOf(lines);
  return { lines, keyValues: keyValuesOf(lines, tableLines), tables };
}
