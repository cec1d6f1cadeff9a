/**
 * The schema-guided extract engine: walks the schema, searches every scalar field among
 * the document's label-value candidates, reads arrays of objects from tables, and (deep)
 * tries more candidates and checks the values against each other.
 */
import type { LayoutDocument, LayoutLine } from '../parse/layout.types.js';
import { collectCandidates } from './candidates.js';
import { crossCheck } from './cross-checks.js';
import { documentContext, type DocumentContext } from './document-context.js';
import { typeOf, type JsonSchema } from './extract-schema.js';
import {
  assignFields,
  fallbackFor,
  MISSING,
  moneyColumns,
  scalarField,
  scoreCandidates,
  type Leaf,
  type ScalarField,
  type Scored,
} from './field-search.js';
import { sentenceEncoder } from '../encoder/sentence-encoder.js';
import { cellsOf, looksLikeLabel } from './candidates.js';
import {
  EncoderLabelSimilarity,
  LexicalLabelSimilarity,
  type FieldText,
  type LabelSimilarity,
} from './label-similarity.js';
import { findRows } from './line-items.js';

export type Found =
  | Leaf
  | { kind: 'object'; fields: Record<string, Found> }
  | { kind: 'rows'; rows: Record<string, Found>[] }
  | { kind: 'list'; items: Leaf[] };

export interface SchemaExtractOptions {
  deep: boolean;
  /** `settings.array_extract`: arrays gather rows from every matching table. */
  arrayExtract: boolean;
  similarity?: LabelSimilarity;
}

/**
 * Below this a labelled text value ("Name: ...") yields to a letterhead's organization or
 * address, when the field is one.
 */
const WEAK_LABELLED = 0.45;

let sharedSimilarity: LabelSimilarity | undefined;

/**
 * The similarity used when none is given: the sentence encoder's, or the lexical one alone
 * when the encoder is not installed; built once, its caches shared by requests.
 */
export function defaultSimilarity(): LabelSimilarity {
  if (!sharedSimilarity) {
    const encoder = sentenceEncoder();
    sharedSimilarity = encoder ? new EncoderLabelSimilarity(encoder) : new LexicalLabelSimilarity();
  }
  return sharedSimilarity;
}

type Slot =
  | { kind: 'scalar'; field: ScalarField }
  | { kind: 'object'; slots: Record<string, Slot> }
  | { kind: 'rows'; items: JsonSchema }
  | { kind: 'list'; field: ScalarField };

function slotsOf(schema: JsonSchema, path: string, name: string): Slot {
  const type = typeOf(schema);
  if (type === 'object') {
    return {
      kind: 'object',
      slots: Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, child]) => [
          key,
          slotsOf(child, path === '' ? key : `${path}.${key}`, key),
        ]),
      ),
    };
  }
  if (type === 'array') {
    const items = schema.items ?? { type: 'string' };
    if (typeOf(items) === 'object') return { kind: 'rows', items };
    return {
      kind: 'list',
      field: scalarField(path, name, {
        ...items,
        description: schema.description,
        title: schema.title,
      }),
    };
  }
  return { kind: 'scalar', field: scalarField(path, name, schema) };
}

function scalarsOf(slot: Slot): ScalarField[] {
  if (slot.kind === 'scalar') return [slot.field];
  if (slot.kind === 'object') return Object.values(slot.slots).flatMap(scalarsOf);
  return [];
}

export function schemaExtract(
  document: LayoutDocument,
  schema: JsonSchema,
  options: SchemaExtractOptions,
): Found {
  const similarity = options.similarity ?? defaultSimilarity();
  const { lines, candidates } = collectCandidates(document, {
    inline: options.deep,
    linesBelow: options.deep ? 3 : 2,
    multiLine: options.deep,
  });
  const context = documentContext(lines);
  const root = slotsOf(schema, '', '');
  const fields = scalarsOf(root);
  similarity.prepare?.(labelsToScore(candidates, lines, root), [
    ...fields.map((f) => f.text),
    ...rowFieldsOf(root),
  ]);
  const settings = { similarity, fallbacks: true, moneyColumns: moneyColumns(lines) };
  const ranked = new Map<string, Scored[]>(
    fields.map((f) => [f.key, scoreCandidates(f, candidates, context, settings, lines.length)]),
  );
  const assigned = assignFields(fields, ranked);
  crossCheck(fields, ranked, assigned, context, lines, options.deep);
  const takenDates = new Set([...assigned.values()].map((leaf) => String(leaf.value)));
  for (const field of fields) {
    const weak = (assigned.get(field.key)?.confidence ?? 0) < WEAK_LABELLED;
    if (assigned.has(field.key) && !(weak && field.kind === 'text')) continue;
    const fallback = fallbackFor(field, lines, context, takenDates);
    if (fallback) {
      assigned.set(field.key, fallback);
      takenDates.add(String(fallback.value));
    }
  }
  const build = (slot: Slot): Found => {
    switch (slot.kind) {
      case 'scalar':
        return assigned.get(slot.field.key) ?? MISSING;
      case 'object':
        return {
          kind: 'object',
          fields: Object.fromEntries(Object.entries(slot.slots).map(([k, s]) => [k, build(s)])),
        };
      case 'rows':
        return {
          kind: 'rows',
          rows: findRows(slot.items, lines, context, similarity, {
            acrossPages: true,
            allTables: options.deep || options.arrayExtract,
            joinContinuations: options.deep,
          }),
        };
      case 'list':
        return {
          kind: 'list',
          items: listValues(slot.field, candidates, context, settings, lines.length),
        };
    }
  };
  return build(root);
}

/** The properties of the schema's arrays of objects (the columns of their tables). */
function rowFieldsOf(slot: Slot): FieldText[] {
  if (slot.kind === 'object') return Object.values(slot.slots).flatMap(rowFieldsOf);
  if (slot.kind !== 'rows') return [];
  return Object.entries(slot.items.properties ?? {}).map(([name, schema]) => ({
    name,
    title: schema.title,
    description: schema.description,
  }));
}

/** Every label the search will score: the candidates' labels, and table header cells. */
function* labelsToScore(
  candidates: readonly { label: string }[],
  lines: readonly LayoutLine[],
  root: Slot,
): Generator<string> {
  for (const candidate of candidates) yield candidate.label;
  if (rowFieldsOf(root).length === 0) return;
  for (const line of lines) {
    const cells = cellsOf(line);
    if (cells.length >= 2 && cells.every((c) => looksLikeLabel(c.text)))
      for (const cell of cells) yield cell.text;
  }
}

/** An array of scalars: every distinct value whose label names the field. */
function listValues(
  field: ScalarField,
  candidates: Parameters<typeof scoreCandidates>[1],
  context: DocumentContext,
  settings: Parameters<typeof scoreCandidates>[3],
  lineCount: number,
): Leaf[] {
  const scored = scoreCandidates(field, candidates, context, settings, lineCount);
  const best = scored[0]?.score ?? 0;
  const seen = new Set<string>();
  const items: Leaf[] = [];
  for (const s of scored) {
    if (s.score < best * 0.8 || seen.has(String(s.value))) continue;
    seen.add(String(s.value));
    items.push({
      kind: 'leaf',
      value: s.value,
      citations: [s.candidate.citation],
      confidence: s.score,
    });
  }
  return items;
}
