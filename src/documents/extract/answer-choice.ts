/**
 * Deep extract's choice between its own answer for a field and default's: both are
 * scored by the same evidence (how sure the search that found each was, how near the
 * text it was read from comes to what the field asks in the sentence encoder) and by the
 * document's checks of the value (repeated elsewhere, reached by adding other amounts,
 * placed first among dates, not a deduction or a passage). Default's answer stays unless
 * deep's is better supported overall and the checks favour it: the search's own
 * confidence and fit are what default already weighed when it chose, so deep's extra
 * candidates replace default's answer only with evidence from the document that outranks
 * it, and deep extract never loses what default finds on the search's word alone.
 */
import type { LayoutLine } from '../parse/layout.types.js';
import { cosine, sentenceEncoder } from '../encoder/sentence-encoder.js';
import { findAmounts } from './amounts.js';
import { findDates } from './dates.js';
import { dateOrders, keepDatesInOrder, ownDateFields } from './date-order.js';
import type { DocumentContext } from './document-context.js';
import type { Leaf, ScalarField } from './field-search.js';
import { readable } from './passages.js';
import { humanize } from './text-match.js';
import { readsOnAs } from './unlabelled.js';

/** Weight of the encoder's nearness of the cited text to the field's question. */
const FIT_WEIGHT = 0.5;
/** Weight of the value being repeated in the document (capped at REPEATS places). */
const AGREEMENT_WEIGHT = 0.15;
const REPEATS = 3;
/** A text value this long is a passage, not a value: it loses to any answer. */
const PASSAGE_WORDS = 30;
const CENT = 0.005;
/**
 * A negative amount is a deduction (a discount, savings, change given back); an amount a
 * schema asks for is what is owed or paid, so a positive answer is preferred.
 */
const DEDUCTION_PENALTY = 0.5;
/**
 * A document states its own date at its head; dates further on are of other events
 * (deadlines, recitals, earlier agreements): of two dates the earlier-placed gains this.
 */
const EARLIER_DATE = 0.3;
/**
 * An amount the document reaches by adding two of its other amounts (subtotal plus tax,
 * net plus charges) is a total the arithmetic checks: it gains this.
 */
const SUM_OF_AMOUNTS = 0.2;
/** Amounts of a document looked at for sums (pairs: quadratic). */
const MAX_AMOUNTS = 200;

interface AnswerEvidence {
  confidence: number;
  fit: number;
  repeats: number;
  /** What the document's checks say of the value (repetition, arithmetic, place, sign, length). */
  checks: number;
  score: number;
}

const normalized = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** In how many places besides the cited one the document gives the value. */
function repeatsOf(value: unknown, field: ScalarField, context: DocumentContext): number {
  let places = 0;
  if (typeof value === 'number') {
    places = findAmounts(context.text, context.decimalComma).filter(
      (a) => Math.abs(a.value - value) < CENT,
    ).length;
  } else if (typeof value === 'string' && field.kind === 'date') {
    places = findDates(context.text, context.dateOrder, context.calendar).filter(
      (d) => d.iso === value,
    ).length;
  } else if (typeof value === 'string' && value.trim().length >= 2) {
    const needle = normalized(value);
    const text = normalized(context.text);
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length))
      places++;
  }
  return Math.min(REPEATS, Math.max(0, places - 1));
}

/** Whether two other positive amounts of the document add up to `value`. */
function sumOfTwo(value: number, context: DocumentContext): boolean {
  const amounts = [
    ...new Set(
      findAmounts(context.text, context.decimalComma)
        .filter((a) => a.decimals && a.value > 0 && Math.abs(a.value - value) >= CENT)
        .map((a) => a.value),
    ),
  ].slice(0, MAX_AMOUNTS);
  const seen = new Set(amounts.map((a) => Math.round(a * 100)));
  return amounts.some((a) => a < value && seen.has(Math.round((value - a) * 100)));
}

/** The text that shows what a leaf answers: a text value itself, else the line it was read from. */
function evidenceText(leaf: Leaf, field: ScalarField): string {
  if (field.kind === 'text' && typeof leaf.value === 'string') return readable(leaf.value);
  return readable(leaf.citations[0]?.content ?? String(leaf.value));
}

function runsOn(leaf: Leaf): boolean {
  return typeof leaf.value === 'string' && leaf.value.split(/\s+/).length > PASSAGE_WORDS;
}

/** The evidence for each of several answers to one field, scored alike. */
function weighAnswers(
  field: ScalarField,
  answers: readonly Leaf[],
  lines: readonly LayoutLine[],
  context: DocumentContext,
): AnswerEvidence[] {
  const encoder = sentenceEncoder();
  const question = field.text.description ?? humanize(field.name);
  const vectors = encoder?.embed([question, ...answers.map((a) => evidenceText(a, field))]);
  const first = field.kind === 'date' ? firstPlaced(answers, lines) : -1;
  return answers.map((answer, i) => {
    if (answer.value === null) return { confidence: 0, fit: 0, repeats: 0, checks: -1, score: -1 };
    const fit = vectors ? cosine(vectors[0], vectors[i + 1]) : 0;
    const repeats = repeatsOf(answer.value, field, context);
    const deduction = typeof answer.value === 'number' && answer.value < 0;
    const summed =
      typeof answer.value === 'number' && !deduction && sumOfTwo(answer.value, context);
    const earlier = i === first;
    const checks =
      (AGREEMENT_WEIGHT * repeats) / REPEATS +
      (earlier ? EARLIER_DATE : 0) +
      (summed ? SUM_OF_AMOUNTS : 0) -
      (deduction ? DEDUCTION_PENALTY : 0) -
      (runsOn(answer) ? 1 : 0);
    const score = answer.confidence + FIT_WEIGHT * fit + checks;
    return { confidence: answer.confidence, fit, repeats, checks, score };
  });
}

/** Where in the document's reading order a leaf was read: the first line it cites. */
function placeOf(leaf: Leaf, lines: readonly LayoutLine[]): number {
  const cited = leaf.citations[0]?.bbox;
  if (!cited) return Infinity;
  const at = lines.findIndex(
    (l) => l.bbox.page === cited.page && l.bbox.top + l.bbox.height >= cited.top + 1e-4,
  );
  return at < 0 ? Infinity : at;
}

/** The index of the answer read first in the document, if one was read before the others. */
function firstPlaced(answers: readonly Leaf[], lines: readonly LayoutLine[]): number {
  const places = answers.map((a) => placeOf(a, lines));
  const first = Math.min(...places);
  return places.filter((p) => p === first).length === 1 ? places.indexOf(first) : -1;
}

/** Whether `longer` is `shorter` read on further from the same place. */
function continues(longer: Leaf, shorter: Leaf): boolean {
  if (typeof longer.value !== 'string' || typeof shorter.value !== 'string') return false;
  if (runsOn(longer)) return false;
  const a = longer.citations[0]?.bbox;
  const b = shorter.citations[0]?.bbox;
  const samePlace = a && b && a.page === b.page && Math.abs(a.top - b.top) < 1e-3;
  return Boolean(samePlace) && normalized(longer.value).startsWith(normalized(shorter.value));
}

/** The lines a leaf was read from, as its cited stretches with their lines' type size. */
function citedLines(leaf: Leaf, lines: readonly LayoutLine[]): LayoutLine[] {
  const texts = typeof leaf.value === 'string' ? leaf.value.split('\n') : [];
  return leaf.citations.map((citation, i) => {
    const { bbox } = citation;
    const line = lines.find(
      (l) => l.bbox.page === bbox.page && Math.abs(l.bbox.top - bbox.top) < 1e-3,
    );
    const text = texts[i] ?? citation.content;
    return { text, bbox, size: line?.size ?? bbox.height, segments: [], words: [] };
  });
}

/**
 * Whether deep's answer has the stronger evidence. Another value: it must be better
 * supported overall (the score both answers get alike) and the document's checks must
 * favour it. Default's own value read on over the lines under it: the checks cannot tell
 * the two apart in its favour (they find the first line in the document again), so they
 * must only not favour the line alone; then the added lines must carry the value on by
 * the letterhead's layout tests (`readsOnAs`): a name's or an address's lines for a field
 * asking for a party or a place, either for any other field (a delivery address, the
 * parties). The encoder's fit is no evidence here: it moves either way by chance when a
 * line is added. Ties and everything else keep default's answer.
 */
function outranks(
  field: ScalarField,
  [own, more]: readonly [Leaf, Leaf],
  [ofOwn, ofMore]: readonly AnswerEvidence[],
  lines: readonly LayoutLine[],
): boolean {
  if (!continues(more, own)) return ofMore.score > ofOwn.score && ofMore.checks > ofOwn.checks;
  if (ofMore.checks < ofOwn.checks) return false;
  const block = citedLines(more, lines);
  return field.entity
    ? readsOnAs(field.entity, block)
    : readsOnAs('organization', block) || readsOnAs('place', block);
}

const same = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' ? normalized(a) === normalized(b) : a === b;

/**
 * Per field, deep's answer where default has none, or where its evidence outranks
 * default's (`outranks`); default's otherwise, so deep is never below default on a field
 * but where the document itself supports deep's answer better.
 */
export function chooseAnswers(
  fields: readonly ScalarField[],
  ordinary: ReadonlyMap<string, Leaf>,
  deep: ReadonlyMap<string, Leaf>,
  lines: readonly LayoutLine[],
  context: DocumentContext,
): Map<string, Leaf> {
  const chosen = new Map<string, Leaf>();
  for (const field of fields) {
    const own = ordinary.get(field.key);
    const more = deep.get(field.key);
    if (!own || !more || same(own.value, more.value)) {
      const pick = own && more ? (more.confidence > own.confidence ? more : own) : (own ?? more);
      if (pick) chosen.set(field.key, pick);
      continue;
    }
    const evidence = weighAnswers(field, [own, more], lines, context);
    chosen.set(field.key, outranks(field, [own, more], evidence, lines) ? more : own);
  }
  // Dates out of order (a due date before the invoice's date) take the other pass's
  // answer where that puts them in order.
  keepDatesInOrder(dateOrders(fields), chosen, (field) =>
    [ordinary.get(field.key), deep.get(field.key)].flatMap((leaf) =>
      leaf && leaf !== chosen.get(field.key) ? [leaf] : [],
    ),
  );
  return chosen;
}

/**
 * A field asking for the document's own date takes, among the answers its search found
 * under one label (several lines labelled "Date"), the one the document's checks favour:
 * stated first (a document dates itself at its head; later dates are signatures, deadlines,
 * other events) or stated again. Only answers found are chosen between; none is made up.
 */
export function preferCheckedDates(
  fields: readonly ScalarField[],
  assigned: Map<string, Leaf>,
  alternatives: (field: ScalarField) => readonly Leaf[],
  lines: readonly LayoutLine[],
  context: DocumentContext,
): void {
  for (const field of ownDateFields(fields)) {
    const current = assigned.get(field.key);
    if (typeof current?.value !== 'string') continue;
    const options = [current];
    for (const leaf of alternatives(field))
      if (typeof leaf.value === 'string' && !options.some((o) => o.value === leaf.value))
        options.push(leaf);
    if (options.length < 2) continue;
    const evidence = weighAnswers(field, options, lines, context);
    let best = 0;
    for (let i = 1; i < options.length; i++) if (evidence[i].score > evidence[best].score) best = i;
    if (best > 0 && evidence[best].checks > evidence[0].checks)
      assigned.set(field.key, options[best]);
  }
}
