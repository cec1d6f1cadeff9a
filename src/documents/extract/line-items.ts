/**
 * Arrays of objects (line items) read from tables: a header line whose cells name the
 * item's properties, then the rows under it whose cells sit in those columns. With
 * `acrossPages` a table goes on over page breaks (a repeated header is skipped); with
 * `allTables` (array_extract, deep extract) every matching table adds its rows.
 */
import type { LayoutLine } from '../parse/layout.types.js';
import { roundBox } from '../parse/layout.types.js';
import { cellsOf, type Cell } from './candidates.js';
import type { DocumentContext } from './document-context.js';
import type { JsonSchema } from './extract-schema.js';
import { MISSING, scalarField, type Leaf, type ScalarField } from './field-search.js';
import type { LabelSimilarity } from './label-similarity.js';
import { kindOf, readValue } from './value-parsers.js';

const MIN_HEADER_SCORE = 0.35;

export interface RowOptions {
  acrossPages: boolean;
  allTables: boolean;
  /** A line with text only in the first text column continues the row above. */
  joinContinuations: boolean;
}

interface Column {
  field: ScalarField;
  left: number;
  right: number;
}

interface Header {
  index: number;
  columns: Column[];
  score: number;
}

function headerAt(
  line: LayoutLine,
  index: number,
  fields: readonly ScalarField[],
  similarity: LabelSimilarity,
): Header | undefined {
  const cells = cellsOf(line);
  if (cells.length < 2) return undefined;
  const pairs: { field: ScalarField; cell: Cell; score: number }[] = [];
  for (const field of fields) {
    for (const cell of cells) {
      const score = similarity.score(cell.text, field.text);
      if (score >= MIN_HEADER_SCORE) pairs.push({ field, cell, score });
    }
  }
  pairs.sort((a, b) => b.score - a.score);
  const columns: Column[] = [];
  const usedCells = new Set<Cell>();
  let score = 0;
  for (const { field, cell, score: s } of pairs) {
    if (usedCells.has(cell) || columns.some((c) => c.field === field)) continue;
    usedCells.add(cell);
    columns.push({ field, left: cell.left, right: cell.right });
    score += s;
  }
  const needed = fields.length >= 2 ? Math.max(2, Math.ceil(fields.length / 2)) : 1;
  return columns.length >= needed ? { index, columns, score } : undefined;
}

/** The column a cell sits in: most overlap, else the nearest by centre. */
function columnOf(cell: Cell, columns: readonly Column[]): Column | undefined {
  let best: Column | undefined;
  let bestDistance = Infinity;
  for (const column of columns) {
    const shared = Math.min(cell.right, column.right) - Math.max(cell.left, column.left);
    const distance =
      shared > 0
        ? -shared
        : Math.abs((cell.left + cell.right) / 2 - (column.left + column.right) / 2);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = column;
    }
  }
  return bestDistance < 0.15 ? best : undefined;
}

type Row = Map<ScalarField, Leaf>;

function readRow(line: LayoutLine, columns: readonly Column[], context: DocumentContext): Row {
  const row: Row = new Map();
  for (const cell of cellsOf(line)) {
    const column = columnOf(cell, columns);
    if (!column) continue;
    const read = readValue(cell.text, column.field.kind, column.field.schema, context);
    if (!read) continue;
    const previous = row.get(column.field);
    const value =
      previous && typeof previous.value === 'string' && typeof read.value === 'string'
        ? `${previous.value} ${read.value}`
        : read.value;
    const bbox = roundBox({
      left: cell.left,
      top: line.bbox.top,
      width: cell.right - cell.left,
      height: line.bbox.height,
      page: line.bbox.page,
    });
    row.set(column.field, {
      kind: 'leaf',
      value,
      citations: [...(previous?.citations ?? []), { type: 'Table', content: cell.text, bbox }],
      confidence: 0.8,
    });
  }
  return row;
}

const isNumeric = (f: ScalarField) => ['money', 'number', 'integer', 'percentage'].includes(f.kind);

/** Rows under a header, until a line that does not fit its columns. */
function rowsUnder(
  lines: readonly LayoutLine[],
  header: Header,
  headerLines: ReadonlySet<number>,
  context: DocumentContext,
  options: RowOptions,
): { rows: Row[]; end: number } {
  const rows: Row[] = [];
  let end = header.index;
  const numericColumns = header.columns.filter((c) => isNumeric(c.field)).length;
  let page = lines[header.index].bbox.page;
  for (let i = header.index + 1; i < lines.length; i++) {
    const line = lines[i];
    if (headerLines.has(i)) {
      if (!options.acrossPages || line.bbox.page === page) break;
      continue;
    }
    if (line.bbox.page !== page) {
      if (!options.acrossPages || line.bbox.page !== page + 1) break;
      page = line.bbox.page;
    }
    const row = readRow(line, header.columns, context);
    const numbers = [...row.keys()].filter(isNumeric).length;
    if (numbers >= Math.min(numericColumns, 1) && row.size >= Math.min(2, header.columns.length)) {
      rows.push(row);
      end = i;
      continue;
    }
    const last = rows.at(-1);
    const previousLine = lines[i - 1];
    const continues =
      !/[:：]\s*\S/u.test(line.text) &&
      !/\d[.,]\d{2}(?!\d)/.test(line.text) &&
      line.bbox.page === previousLine.bbox.page &&
      line.bbox.top - (previousLine.bbox.top + previousLine.bbox.height) < line.bbox.height * 1.5;
    if (options.joinContinuations && last && row.size === 1 && numbers === 0 && continues) {
      const [[field, leaf]] = [...row.entries()];
      const before = last.get(field);
      if (before && typeof before.value === 'string') {
        last.set(field, {
          ...before,
          value: `${before.value} ${String(leaf.value)}`,
          citations: [...before.citations, ...leaf.citations],
        });
        end = i;
        continue;
      }
    }
    // A page's running footer or header between two parts of a table is skipped.
    if (options.acrossPages && i + 1 < lines.length && lines[i + 1].bbox.page !== line.bbox.page)
      continue;
    if (options.acrossPages && i > 0 && lines[i - 1].bbox.page !== line.bbox.page) continue;
    break;
  }
  return { rows, end };
}

/** The rows of `itemSchema` the document's tables hold, as leaves per property. */
export function findRows(
  itemSchema: JsonSchema,
  lines: readonly LayoutLine[],
  context: DocumentContext,
  similarity: LabelSimilarity,
  options: RowOptions,
): Record<string, Leaf>[] {
  const entries = Object.entries(itemSchema.properties ?? {});
  const fields = entries.map(([name, schema]) => scalarField(name, name, schema));
  if (fields.length === 0) return [];
  const headers: Header[] = [];
  lines.forEach((line, index) => {
    const header = headerAt(line, index, fields, similarity);
    if (header) headers.push(header);
  });
  if (headers.length === 0) return [];
  const headerLines = new Set(headers.map((h) => h.index));
  const best = headers.reduce((a, b) => (b.score > a.score ? b : a));
  const chosen = options.allTables ? headers : [best];
  const rows: Row[] = [];
  let coveredUntil = -1;
  for (const header of chosen) {
    if (header.index <= coveredUntil) continue;
    const found = rowsUnder(lines, header, headerLines, context, options);
    rows.push(...found.rows);
    coveredUntil = found.end;
  }
  return rows.map((row) =>
    Object.fromEntries(fields.map((field) => [field.key, row.get(field) ?? MISSING])),
  );
}

/** What each money column of an array's rows adds up to (the line items' sum). */
export function columnSums(
  items: JsonSchema,
  rows: readonly Record<string, { kind: string; value?: unknown }>[],
): number[] {
  const sums: number[] = [];
  for (const [name, schema] of Object.entries(items.properties ?? {})) {
    if (kindOf(name, schema) !== 'money') continue;
    const values = rows.flatMap((row) => {
      const cell = row[name];
      return cell?.kind === 'leaf' && typeof cell.value === 'number' ? [cell.value] : [];
    });
    if (values.length > 0) sums.push(values.reduce((a, b) => a + b, 0));
  }
  return sums;
}
