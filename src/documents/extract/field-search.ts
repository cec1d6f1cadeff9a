/**
 * Schema-guided search: every scalar field of the schema is looked for among the
 * document's label-value candidates, each scored by how well its label names the field
 * (LabelSimilarity) and whether its value reads as the field's kind; fields are then
 * assigned greedily, best pair first, so one value does not answer two fields.
 */
import type { LayoutLine } from '../parse/layout.types.js';
import { cellsOf, type Candidate, type Relation } from './candidates.js';
import { lineCitation, type Citation } from './citation.js';
import type { DocumentContext } from './document-context.js';
import { findDates, inDocumentOrder } from './dates.js';
import type { JsonSchema } from './extract-schema.js';
import type { FieldText, LabelSimilarity } from './label-similarity.js';
import { currencyOf } from './currency-table.js';
import { findAmounts } from './amounts.js';
import { inWordsOnly } from './number-words.js';
import { announcesIdentifier, kindOf, readValue, type ValueKind } from './value-parsers.js';
import { entityKindOf, namesADocument, namesAHeading, type EntityKind } from './wordnet-kinds.js';
import { humanize } from './text-match.js';
import { nameLike, unlabelledOrganization, unlabelledPlace } from './unlabelled.js';

/** A found value, with where it was read and how sure the search is (0..1). */
export interface Leaf {
  kind: 'leaf';
  value: unknown;
  citations: Citation[];
  confidence: number;
  ambiguous?: boolean;
}

export const MISSING: Leaf = { kind: 'leaf', value: null, citations: [], confidence: 0 };

const COLUMN_TOLERANCE = 0.015;
/** A value with more numbers after it on its line is one column of a row. */
const CROWDED = 0.85;

/**
 * Right edges shared by two or more amounts with cents: the columns a document's amounts
 * are aligned in (totals blocks, price columns).
 */
export function moneyColumns(lines: readonly LayoutLine[]): number[] {
  const edges: number[] = [];
  for (const line of lines) {
    for (const cell of cellsOf(line)) {
      if (/\d[.,]\d{2}\s*\S{0,3}$/u.test(cell.text)) edges.push(cell.right);
    }
  }
  edges.sort((a, b) => a - b);
  const columns: number[] = [];
  for (let i = 0; i < edges.length;) {
    let j = i;
    while (j + 1 < edges.length && edges[j + 1] - edges[i] < COLUMN_TOLERANCE) j++;
    if (j > i) columns.push((edges[i] + edges[j]) / 2);
    i = j + 1;
  }
  return columns;
}

/** A label this weak is no evidence that it names the field. */
const MIN_LABEL_SCORE = 0.3;
/** How much each way of pairing a label with its value is trusted. */
const RELATION_PRIOR: Record<Relation, number> = {
  colon: 1,
  columns: 0.95,
  below: 0.9,
  // A table header names a column: one of its cells answers a scalar field less surely.
  header: 0.65,
  inline: 0.75,
  line: 0.5,
};

/**
 * A number in words no reader read ("zwölf", "a dozen") counts as this much of a value: its
 * label still answers the field, with null, ahead of weaker labels' figures.
 */
const UNREAD_NUMBER = 0.6;

const NUMERIC_KINDS: ReadonlySet<ValueKind> = new Set(['money', 'number', 'integer']);

const labelKindCache = new Map<string, ValueKind>();

function labelKinds(label: string): ValueKind {
  let kind = labelKindCache.get(label);
  if (kind === undefined) {
    kind = kindOf(label, { type: 'string' });
    if (labelKindCache.size > 10_000) labelKindCache.clear();
    labelKindCache.set(label, kind);
  }
  return kind;
}

/**
 * Where on the page a number read from a candidate ends: its share of the cited text's
 * width, the cited text being the label and value as drawn.
 */
function valueRight(candidate: Candidate, end: number | undefined): number {
  const { bbox, content } = candidate.citation;
  const right = bbox.left + bbox.width;
  if (end === undefined || content.length === 0) return right;
  const at = content.lastIndexOf(candidate.value.trim());
  if (at < 0) return right;
  const trimmedStart = candidate.value.length - candidate.value.trimStart().length;
  return (
    bbox.left + (bbox.width * Math.min(content.length, at + end - trimmedStart)) / content.length
  );
}

/** Words a value under its label has at most; more make a sentence of running text. */
const VALUE_WORDS = 8;

function sentenceLike(value: string): boolean {
  return value.trim().split(/\s+/).length > VALUE_WORDS;
}

/** Mostly letters: a name or an address rather than a code. */
function wordy(text: string): boolean {
  const compact = text.replace(/\s/g, '');
  return compact.length > 0 && (compact.match(/\p{L}/gu) ?? []).length / compact.length >= 0.5;
}

export interface ScalarField {
  /** Path of the field in the schema, for the result. */
  key: string;
  /** What WordNet says the field's head noun names, for text fields. */
  entity?: EntityKind;
  /** The field asks for a title or heading: the document's own, unless labelled. */
  heading?: boolean;
  name: string;
  schema: JsonSchema;
  kind: ValueKind;
  text: FieldText;
}

export interface Scored {
  field: ScalarField;
  candidate: Candidate;
  value: unknown;
  score: number;
  /** How well the candidate's label names the field (LabelSimilarity), before the rest. */
  labelScore: number;
  ambiguous?: boolean;
}

export interface SearchSettings {
  similarity: LabelSimilarity;
  /** Right edges (page fractions) where the document's amounts line up. */
  moneyColumns: readonly number[];
  /** Fall back on unlabelled evidence (first date, document currency, letterhead). */
  fallbacks: boolean;
}

/** Whether a value is a whole number written bare: digits alone, no currency, no cents. */
function bareDigits(value: string, context: DocumentContext): boolean {
  const amount = findAmounts(value, context.decimalComma, context.readCurrency)[0];
  if (!amount || amount.currency !== undefined) return false;
  // "1,250" or "1.250" is grouped as an amount is.
  return /^\d+$/u.test(value.slice(amount.index, amount.index + amount.length).trim());
}

/**
 * A whole number written bare ("Total 3") in a document that writes larger amounts as money
 * (with cents or a currency) counts something, items or pages: the money it would be a
 * total of is written otherwise.
 */
function countBesideMoney(value: string, read: unknown, context: DocumentContext): boolean {
  if (typeof read !== 'number' || context.largestMoney === undefined) return false;
  return bareDigits(value, context) && Math.abs(read) < context.largestMoney;
}

/**
 * A document's name with a bare number after it ("Invoice 42", a heading) gives the
 * document's number, as "Invoice No. 42" does, not an amount of it: a field described
 * "invoice amount" is near the label by its modifier only.
 */
function documentAndItsNumber(label: string, value: string, context: DocumentContext): boolean {
  const words = label.trim().split(/\s+/u);
  return (
    words.length === 1 &&
    /^\p{L}{3,}$/u.test(words[0]) &&
    namesADocument(words[0]) &&
    bareDigits(value, context)
  );
}

/** Words where a number was asked for, and not a currency's name standing before it. */
function unreadNumber(value: string): boolean {
  return inWordsOnly(value) && currencyOf(value) === undefined;
}

export function scalarField(key: string, name: string, schema: JsonSchema): ScalarField {
  const kind = kindOf(name, schema);
  const words = humanize(name).split(' ');
  const head = words[words.length - 1];
  return {
    ...(kind === 'text' && head.length >= 3 && namesAHeading(head) ? { heading: true } : {}),
    key,
    name,
    schema,
    kind,
    entity: kind === 'text' ? entityKindOf(humanize(name).split(' ')) : undefined,
    text: { name, title: schema.title, description: schema.description },
  };
}

/** Every candidate that could answer `field`, best first. */
export function scoreCandidates(
  field: ScalarField,
  candidates: readonly Candidate[],
  context: DocumentContext,
  settings: SearchSettings,
  lineCount: number,
): Scored[] {
  const scored: Scored[] = [];
  const labelScores = new Map<string, number>();
  for (const candidate of candidates) {
    let labelScore = labelScores.get(candidate.label);
    if (labelScore === undefined) {
      labelScore = settings.similarity.score(candidate.label, field.text);
      labelScores.set(candidate.label, labelScore);
    }
    if (labelScore < MIN_LABEL_SCORE) continue;
    // A label that announces a number or code ("Company No.") does not name a text field.
    if (field.kind === 'text' && labelKinds(candidate.label) === 'identifier') continue;
    // Nor is a value that opens with such a label: it is the next label ("GST No."), or
    // a code in its own words ("(Company No. 113825-W)").
    if (field.kind === 'text' && labelKinds(candidate.value.split('\n')[0]) === 'identifier')
      continue;
    // Names of parties are words, not codes; labels found inside running text are for
    // values with a shape (dates, amounts, codes).
    if (field.entity && !wordy(candidate.value)) continue;
    // An organization is named, not reached: an address with a telephone and an e-mail
    // under an office's label is where it is.
    if (field.entity === 'organization' && !nameLike(candidate.value.split('\n')[0])) continue;
    if (field.kind === 'text' && candidate.relation === 'inline') continue;
    // A value after a number sign names a thing ("Facture n° 2024-17", "Invoice # 4711"):
    // no amount or count, unless the field asks for that identifier as a number.
    if (
      NUMERIC_KINDS.has(field.kind) &&
      labelKinds(field.name) !== 'identifier' &&
      (announcesIdentifier(candidate.label) ||
        documentAndItsNumber(candidate.label, candidate.value, context))
    )
      continue;
    // A sentence under a line (a title over a paragraph) is running text, not the value a
    // label stands over: a code or a figure in it is the sentence search's to read.
    if (field.kind !== 'text' && candidate.relation === 'below' && sentenceLike(candidate.value))
      continue;
    const read = readValue(candidate.value, field.kind, field.schema, context);
    if (!read) {
      if (NUMERIC_KINDS.has(field.kind) && unreadNumber(candidate.value)) {
        const score = labelScore * RELATION_PRIOR[candidate.relation] * UNREAD_NUMBER;
        scored.push({
          field,
          candidate,
          value: null,
          score: candidate.crowded ? score * CROWDED : score,
          labelScore,
        });
      }
      continue;
    }
    // An identifier that is all date is a date printed beside a "No." column.
    if (
      field.kind === 'identifier' &&
      findDates(candidate.value)[0]?.length === candidate.value.trim().length
    )
      continue;
    if (field.kind === 'money' && countBesideMoney(candidate.value, read.value, context)) continue;
    let score = labelScore * RELATION_PRIOR[candidate.relation] * (0.6 + 0.4 * read.coverage);
    if (candidate.crowded) score *= CROWDED;
    if (field.kind === 'money') {
      // Totals come after what they add up: between equal labels the later amount wins.
      score += 0.02 * (candidate.lineIndex / Math.max(1, lineCount));
      // Amounts line up in a column; a number inside a label's text ("Total qty: 2") is
      // off that column.
      const right = valueRight(candidate, read.end);
      if (!settings.moneyColumns.some((c) => Math.abs(c - right) < COLUMN_TOLERANCE)) score *= 0.75;
    }
    scored.push({
      field,
      candidate,
      value: read.value,
      score,
      labelScore,
      ambiguous: read.ambiguous,
    });
  }
  return scored.sort((a, b) => b.score - a.score);
}

function leafOf(pick: Scored): Leaf {
  return {
    kind: 'leaf',
    value: pick.value,
    // A number in words that was not read is no value to cite.
    citations: pick.value === null ? [] : [pick.candidate.citation, ...(pick.candidate.more ?? [])],
    confidence: Math.min(1, pick.score),
    ...(pick.ambiguous ? { ambiguous: true } : {}),
  };
}

/** Where a value was used: a line and the text read there. */
function usedKey(pick: Scored): string {
  return `${pick.candidate.lineIndex}\u0000${String(pick.value)}`;
}

/**
 * Assigns values to fields: the best-scoring (field, candidate) pair first, then the
 * next pair whose field is open and whose value no other field took.
 */
export function assignFields(
  fields: readonly ScalarField[],
  ranked: ReadonlyMap<string, Scored[]>,
): Map<string, Leaf> {
  const all = fields.flatMap((f) => ranked.get(f.key) ?? []).sort((a, b) => b.score - a.score);
  const result = new Map<string, Leaf>();
  const used = new Set<string>();
  for (const pick of all) {
    if (result.has(pick.field.key) || used.has(usedKey(pick))) continue;
    // A date or an amount may answer two fields (an invoice's date and its delivery date).
    if (pick.field.kind === 'text' || pick.field.kind === 'identifier') used.add(usedKey(pick));
    result.set(pick.field.key, leafOf(pick));
  }
  return result;
}

function firstLineWith(
  lines: readonly LayoutLine[],
  test: (text: string) => boolean,
): LayoutLine | undefined {
  return lines.find((l) => test(l.text));
}

/**
 * A field no label answers may still be on the page unlabelled: the document's currency,
 * its one date, the letterhead's organization and address. These are low-confidence.
 */
export function fallbackFor(
  field: ScalarField,
  lines: readonly LayoutLine[],
  context: DocumentContext,
  taken: ReadonlySet<string>,
): Leaf | undefined {
  const low = (value: unknown, line: LayoutLine, extra: Partial<Leaf> = {}): Leaf => ({
    kind: 'leaf',
    value,
    citations: [lineCitation(line, 'Text')],
    confidence: 0.3,
    ...extra,
  });
  if (field.kind === 'currency' && context.currency) {
    const code = context.currency;
    const line = firstLineWith(
      lines,
      (t) => readValue(t, 'currency', field.schema, context)?.value === code,
    );
    return line ? low(code, line) : undefined;
  }
  if (field.kind === 'date') {
    // A numeric date valid only in the order the document does not write its dates in
    // ("11-22-31" on a day-first receipt) is more likely a code: a later date that agrees
    // is taken first.
    let disagreeing: Leaf | undefined;
    for (const line of lines) {
      for (const date of findDates(line.text, context.dateOrder, context.calendar)) {
        if (taken.has(date.iso)) continue;
        const leaf = low(date.iso, line, date.ambiguous ? { ambiguous: true } : {});
        if (inDocumentOrder(date, context.dateOrder)) return leaf;
        disagreeing ??= leaf;
      }
    }
    return disagreeing;
  }
  if (field.kind !== 'text') return undefined;
  const entity = field.entity;
  if (entity === 'organization') {
    const found = unlabelledOrganization(lines);
    return found ? low(found.text, found.line) : undefined;
  }
  if (entity === 'place') {
    const found = unlabelledPlace(lines);
    return found
      ? {
          ...low(found.text, found.lines[0]),
          citations: found.lines.map((l) => lineCitation(l, 'Text')),
        }
      : undefined;
  }
  return undefined;
}
