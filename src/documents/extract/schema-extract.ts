/**
 * The schema-guided extract engine: walks the schema, searches every scalar field among
 * the document's label-value candidates, reads arrays of objects from tables, and (deep)
 * tries more candidates and checks the values against each other.
 */
import type { LayoutDocument, LayoutLine } from '../parse/layout.types.js';
import { chooseAnswers, preferCheckedDates } from './answer-choice.js';
import { collectCandidates, type Candidate } from './candidates.js';
import { crossCheck, nearAlternatives, sameLabelAlternatives } from './cross-checks.js';
import { dateOrders, keepDatesInOrder } from './date-order.js';
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
  type SearchSettings,
} from './field-search.js';
import { cellsOf, looksLikeLabel } from './candidates.js';
import {
  EncoderLabelSimilarity,
  LexicalLabelSimilarity,
  type FieldText,
  type LabelSimilarity,
} from './label-similarity.js';
import { columnSums, findRows, type RowOptions } from './line-items.js';
import { labelsNamingOtherThings } from './label-initialisms.js';
import { labelsOfOtherNouns } from './label-nouns.js';
import { labelsOfOtherFields, withoutWithheld } from './label-owners.js';
import { searchRunningText } from './running-text.js';
import { sentenceEncoder } from '../encoder/sentence-encoder.js';

export type Found =
  | Leaf
  | { kind: 'object'; fields: Record<string, Found> }
  | { kind: 'rows'; rows: Record<string, Found>[] }
  | { kind: 'list'; items: Leaf[] };

interface SchemaExtractOptions {
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
  const root = slotsOf(schema, '', '');
  const fields = scalarsOf(root);
  // Deep extract starts from default's answers and adds its own; each field keeps the
  // better supported of the two, so deep never loses what default finds.
  const rowOptions: RowOptions = {
    acrossPages: true,
    allTables: options.deep || options.arrayExtract,
    joinContinuations: options.deep,
  };
  const ordinary = scalarPass(document, root, fields, similarity, false, rowOptions);
  const pass = options.deep
    ? scalarPass(document, root, fields, similarity, true, rowOptions)
    : ordinary;
  const assigned = options.deep
    ? chooseAnswers(fields, ordinary.assigned, pass.assigned, pass.lines, pass.context)
    : ordinary.assigned;
  const { candidates, context, settings } = pass;
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
        return { kind: 'rows', rows: pass.rows.get(slot) ?? [] };
      case 'list':
        return {
          kind: 'list',
          items: listValues(slot.field, candidates, context, settings, pass.lines.length),
        };
    }
  };
  return build(root);
}

interface ScalarPass {
  lines: LayoutLine[];
  candidates: Candidate[];
  context: DocumentContext;
  settings: SearchSettings;
  assigned: Map<string, Leaf>;
  /** The rows of each array of objects of the schema, read from the document's tables. */
  rows: Map<Slot, Record<string, Found>[]>;
}

/** The rows of every array of objects of the schema. */
function readRows(
  slot: Slot,
  lines: readonly LayoutLine[],
  context: DocumentContext,
  similarity: LabelSimilarity,
  options: RowOptions,
  into = new Map<Slot, Record<string, Found>[]>(),
): Map<Slot, Record<string, Found>[]> {
  if (slot.kind === 'rows')
    into.set(slot, findRows(slot.items, lines, context, similarity, options));
  if (slot.kind === 'object')
    for (const child of Object.values(slot.slots))
      readRows(child, lines, context, similarity, options, into);
  return into;
}

/** One search of the schema's scalar fields: default's, or deep's with more candidates. */
function scalarPass(
  document: LayoutDocument,
  root: Slot,
  fields: readonly ScalarField[],
  similarity: LabelSimilarity,
  deep: boolean,
  rowOptions: RowOptions,
): ScalarPass {
  const { lines, candidates } = collectCandidates(document, {
    inline: deep,
    linesBelow: deep ? 3 : 2,
    multiLine: deep,
  });
  const context = documentContext(lines);
  similarity.prepare?.(labelsToScore(candidates, lines, root), [
    ...fields.map((f) => f.text),
    ...rowFieldsOf(root),
  ]);
  const settings = { similarity, fallbacks: true, moneyColumns: moneyColumns(lines) };
  const scored = new Map<string, Scored[]>(
    fields.map((f) => [f.key, scoreCandidates(f, candidates, context, settings, lines.length)]),
  );
  const withheld = labelsOfOtherFields(scored);
  for (const more of [
    labelsNamingOtherThings(scored, context.language),
    labelsOfOtherNouns(scored, sentenceEncoder(), context.language),
  ])
    for (const [field, labels] of more)
      withheld.set(field, new Set([...(withheld.get(field) ?? []), ...labels]));
  const ranked = withoutWithheld(scored, withheld);
  const assigned = assignFields(fields, ranked);
  const rows = readRows(root, lines, context, similarity, rowOptions);
  const sums = [...rows].flatMap(([slot, found]) =>
    slot.kind === 'rows' ? columnSums(slot.items, found) : [],
  );
  crossCheck(fields, ranked, assigned, context, lines, deep, sums);
  if (deep)
    preferCheckedDates(
      fields,
      assigned,
      (f) => sameLabelAlternatives(ranked.get(f.key) ?? [], assigned.get(f.key)),
      lines,
      context,
    );
  searchRunningText(fields, assigned, lines, context, deep, withheld);
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
  keepDatesInOrder(dateOrders(fields), assigned, (field) =>
    nearAlternatives(ranked.get(field.key) ?? [], deep),
  );
  return { lines, candidates, context, settings, assigned, rows };
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
