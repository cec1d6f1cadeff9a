/** Extract as the label-exact and label-normalized engines did it. */
import type { LayoutLine } from '../parse/layout.types.js';
import { alignedColumns } from '../parse/layout.engines.js';
import {
  cellsOf,
  type DocumentEvidence,
  type FoundTable,
  type KeyValue,
  type TableCell,
} from './document-evidence.js';
import { lineCitation, type Citation } from './citation.js';
import type { ExtractProfile } from './extract.engines.js';
import {
  contentWords,
  humanize,
  labelVariants,
  normalize,
  similarity,
  stems,
} from './text-match.js';
import { parseBoolean } from './value-parsers.js';
import { parseDate } from './dates.js';
import { parseNumber } from './amounts.js';
import { typeOf, type JsonSchema } from './extract-schema.js';

export type LegacyFound =
  | { kind: 'leaf'; value: unknown; citations: Citation[] }
  | { kind: 'object'; fields: Record<string, LegacyFound> }
  | { kind: 'rows'; rows: Record<string, LegacyFound>[] };

const MISSING: LegacyFound = { kind: 'leaf', value: null, citations: [] };

/**
 * The label matcher of the first extract versions (extract-v1, extract-v2), kept so pinned
 * requests answer as they did.
 */
export class LegacyFinder {
  private readonly usedLines = new Set<number>();

  constructor(
    private readonly evidence: DocumentEvidence,
    private readonly profile: ExtractProfile,
  ) {}

  /** Normalized labels a property may appear under in the document. */
  private labelsFor(name: string, schema: JsonSchema): string[] {
    const base = [humanize(name)];
    if (this.profile.useTitle && schema.title) base.push(normalize(schema.title));
    if (this.profile.useDescription && schema.description) {
      // Descriptions usually start with the field's head noun phrase ("Carrier used for...").
      const words = contentWords(schema.description);
      for (let n = 1; n <= Math.min(3, words.length); n++) base.push(words.slice(0, n).join(' '));
    }
    const labels = this.profile.synonyms ? base.flatMap((label) => labelVariants(label)) : base;
    return [...new Set(labels.filter(Boolean))];
  }

  private score(label: string, labels: string[]): number {
    let best = 0;
    for (const candidate of labels) {
      switch (this.profile.labelMatch) {
        case 'exact':
          if (label === candidate) return 1;
          break;
        case 'normalized':
          if (label === candidate || stems(label).join(' ') === stems(candidate).join(' '))
            return 1;
          break;
        case 'fuzzy': {
          const s = similarity(label, candidate);
          if (s >= 0.85) best = Math.max(best, s);
          const labelWords = label.split(' ');
          const candidateWords = candidate.split(' ');
          const contains = (outer: string, inner: string) => ` ${outer} `.includes(` ${inner} `);
          if (
            contains(label, candidate) &&
            (candidateWords.length >= 2 || labelWords.length <= 2)
          ) {
            best = Math.max(best, 0.8);
          }
          if (contains(candidate, label) && labelWords.length >= 2) best = Math.max(best, 0.75);
          break;
        }
      }
    }
    return best;
  }

  private convert(raw: string, schema: JsonSchema): { ok: boolean; value: unknown } {
    const text = raw.trim();
    if (text === '') return { ok: false, value: null };
    const type = typeOf(schema);
    if (type === 'number' || type === 'integer') {
      const n = parseNumber(text);
      return n === null
        ? { ok: false, value: null }
        : { ok: true, value: type === 'integer' ? Math.round(n) : n };
    }
    if (type === 'boolean') {
      const b = parseBoolean(text, this.profile.lenientBooleans);
      return { ok: b !== null, value: b };
    }
    if (type === 'array') {
      return { ok: true, value: text.split(/\s*[,;]\s*/).filter(Boolean) };
    }
    if (schema.enum && schema.enum.length > 0) {
      const match =
        schema.enum.find((e) => normalize(String(e)) === normalize(text)) ??
        schema.enum.find((e) => ` ${normalize(text)} `.includes(` ${normalize(String(e))} `));
      return match === undefined ? { ok: false, value: null } : { ok: true, value: match };
    }
    if (schema.format === 'date' || schema.format === 'date-time') {
      const iso = parseDate(text);
      if (iso === null) return { ok: false, value: null };
      return { ok: true, value: this.profile.isoDates ? iso : text };
    }
    return { ok: true, value: text };
  }

  /** Continuation lines of a value that starts below its label (addresses). */
  private continuation(kv: KeyValue): { text: string; lines: LayoutLine[] } {
    const lines = this.evidence.lines;
    let index = kv.lineIndex + 2;
    const taken: LayoutLine[] = [];
    let previous = lines[kv.lineIndex + 1];
    while (index < lines.length && taken.length < 3) {
      const line = lines[index];
      const gap = line.bbox.top - (previous.bbox.top + previous.bbox.height);
      if (line.bbox.page !== previous.bbox.page || gap > 1.2 * previous.bbox.height) break;
      if (/[:：]/.test(line.text) || line.segments.length >= 2) break;
      taken.push(line);
      previous = line;
      index++;
    }
    return { text: taken.map((l) => l.text.trim()).join('\n'), lines: taken };
  }

  findScalar(name: string, schema: JsonSchema): LegacyFound {
    const labels = this.labelsFor(name, schema);
    const ranked = this.evidence.keyValues
      .filter((kv) => !this.usedLines.has(kv.lineIndex))
      .filter((kv) => this.profile.nextLineValues || !kv.nextLine)
      .map((kv) => ({ kv, score: this.score(kv.normalizedLabel, labels) }))
      .filter((c) => c.score > 0)
      .sort((a, b) => b.score - a.score);
    for (const { kv } of ranked) {
      let raw = kv.value;
      const citations = [...kv.citations];
      if (this.profile.multiLine && kv.nextLine && typeOf(schema) === 'string' && !schema.format) {
        const more = this.continuation(kv);
        if (more.text) {
          raw = `${raw}\n${more.text}`;
          citations.push(...more.lines.map((l) => lineCitation(l, 'Key Value')));
        }
      }
      const converted = this.convert(raw, schema);
      if (!converted.ok) continue;
      this.usedLines.add(kv.lineIndex);
      return { kind: 'leaf', value: converted.value, citations };
    }
    if (this.profile.inlineLabels) return this.findInline(labels, schema);
    return MISSING;
  }

  /** "Label value" with neither colon nor column gap (deep engines). */
  private findInline(labels: string[], schema: JsonSchema): LegacyFound {
    const sorted = [...labels].sort((a, b) => b.length - a.length);
    for (const [index, line] of this.evidence.lines.entries()) {
      if (this.usedLines.has(index)) continue;
      const normalized = normalize(line.text);
      for (const label of sorted) {
        if (!normalized.startsWith(`${label} `)) continue;
        const words = line.text.trim().split(/\s+/);
        const labelWords = label.split(' ').length;
        const converted = this.convert(words.slice(labelWords).join(' '), schema);
        if (!converted.ok) continue;
        this.usedLines.add(index);
        return { kind: 'leaf', value: converted.value, citations: [lineCitation(line, 'Text')] };
      }
    }
    return MISSING;
  }

  private columnScore(cell: TableCell, name: string, schema: JsonSchema): number {
    const labels = this.labelsFor(name, schema);
    return this.score(normalize(cell.text), labels);
  }

  /**
   * Rows of a table continued on the following pages: the first lines of the next page
   * that sit in the same columns (a repeated header is skipped).
   */
  private continuedRows(table: FoundTable): TableCell[][] {
    const rows: TableCell[][] = [];
    const lines = this.evidence.lines;
    let page = table.page;
    let index = table.lastLine + 1;
    while (index < lines.length) {
      // Skip to the first line of the next page; anything else on this page ends the table.
      if (lines[index].bbox.page === page) break;
      if (lines[index].bbox.page !== page + 1) break;
      page++;
      let taken = 0;
      while (index < lines.length && lines[index].bbox.page === page) {
        const line = lines[index];
        if (!alignedColumns(table.headerLine, line)) break;
        const cells = cellsOf(line);
        const repeated = cells.every(
          (cell, i) => normalize(cell.text) === normalize(table.header[i]?.text ?? ''),
        );
        if (!repeated) rows.push(cells);
        taken++;
        index++;
      }
      if (taken === 0) break;
      // Only when the page ends inside the table can it continue again.
      if (index < lines.length && lines[index].bbox.page === page) break;
    }
    return rows;
  }

  findRows(itemSchema: JsonSchema): LegacyFound {
    if (this.profile.tables === 'none') return { kind: 'rows', rows: [] };
    const props = Object.entries(itemSchema.properties ?? {});
    if (props.length === 0) return { kind: 'rows', rows: [] };
    let best: { table: FoundTable; columns: (number | undefined)[]; matched: number } | undefined;
    for (const table of this.evidence.tables) {
      const columns = props.map(([name, schema]) => {
        let bestColumn: number | undefined;
        let bestScore = 0;
        table.header.forEach((cell, column) => {
          const s = this.columnScore(cell, name, schema);
          if (s > bestScore) {
            bestScore = s;
            bestColumn = column;
          }
        });
        return bestColumn;
      });
      const matched = columns.filter((c) => c !== undefined).length;
      if (
        matched >= Math.max(1, Math.ceil(props.length / 2)) &&
        (!best || matched > best.matched)
      ) {
        best = { table, columns, matched };
      }
    }
    if (!best) return { kind: 'rows', rows: [] };
    const rows = [...best.table.rows];
    if (this.profile.tablesAcrossPages) rows.push(...this.continuedRows(best.table));
    const { columns } = best;
    return {
      kind: 'rows',
      rows: rows.map((cells) =>
        Object.fromEntries(
          props.map(([name, schema], i) => {
            const column = columns[i];
            const cell = column === undefined ? undefined : cells[column];
            if (!cell) return [name, MISSING];
            const converted = this.convert(cell.text, schema);
            return [
              name,
              converted.ok
                ? { kind: 'leaf', value: converted.value, citations: [cell.citation] }
                : MISSING,
            ];
          }),
        ),
      ),
    };
  }

  find(name: string, schema: JsonSchema): LegacyFound {
    const type = typeOf(schema);
    if (type === 'object') {
      return {
        kind: 'object',
        fields: Object.fromEntries(
          Object.entries(schema.properties ?? {}).map(([key, child]) => [
            key,
            this.find(key, child),
          ]),
        ),
      };
    }
    if (type === 'array' && schema.items && typeOf(schema.items) === 'object') {
      return this.findRows(schema.items);
    }
    return this.findScalar(name, schema);
  }
}
