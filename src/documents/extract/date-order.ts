/**
 * Dates in order: a field that asks for an end or a deadline (a due date, an expiry, a
 * termination) is no earlier than the document's own date (the date it was issued or
 * signed) when the schema asks for both. Which field is which is read from the fields'
 * descriptions by the sentence encoder, in any language, not from lists of field names;
 * the order then chooses between candidates the searches found, it never makes a date up.
 */
import { cosine, sentenceEncoder } from '../encoder/sentence-encoder.js';
import type { Leaf, ScalarField } from './field-search.js';
import { humanize } from './text-match.js';

/** What the document's own date is, as the encoder reads a field's question. */
const OWN_DATE = 'the date the document was written, issued or signed';
/** The two ends of the axis a field's question is placed on: when a thing starts or ends. */
const STARTS = 'start';
const ENDS = 'end';
/** Below this similarity to OWN_DATE no date field is taken for the document's own. */
const OWN_DATE_SIMILARITY = 0.35;
/**
 * A field this much nearer "end" than the document's own date asks for a later date.
 * Measured: a due date stands 0.08-0.10 above an invoice date ("Rechnungsdatum" /
 * "Fälligkeitsdatum" 0.11, "Date de facture" / "Date d'échéance" 0.10), an expiry or
 * termination 0.09 and more above an agreement's date; an order, shipping, delivery or
 * birth date stands within 0.07 of an invoice's date, and a start date below it.
 */
const LATER_MARGIN = 0.075;

/** A pair of date fields whose values the document gives in this order (or on one day). */
interface DateOrder {
  earlier: ScalarField;
  later: ScalarField;
}

const question = (field: ScalarField) => field.text.description ?? humanize(field.name);

/**
 * The date fields that ask for the document's own date (when it was written, issued or
 * signed), as the encoder reads their questions; none without the encoder.
 */
export function ownDateFields(fields: readonly ScalarField[]): ScalarField[] {
  const dates = fields.filter((f) => f.kind === 'date');
  const encoder = dates.length > 0 ? sentenceEncoder() : null;
  if (!encoder) return [];
  const [own, ...asked] = encoder.embed([OWN_DATE, ...dates.map(question)]);
  return dates.filter((_, i) => cosine(asked[i], own) >= OWN_DATE_SIMILARITY);
}

/** The orders the schema's date fields must keep; none without the encoder. */
export function dateOrders(fields: readonly ScalarField[]): DateOrder[] {
  const dates = fields.filter((f) => f.kind === 'date');
  const encoder = dates.length >= 2 ? sentenceEncoder() : null;
  if (!encoder) return [];
  const [own, starts, ends, ...asked] = encoder.embed([
    OWN_DATE,
    STARTS,
    ENDS,
    ...dates.map(question),
  ]);
  const ownness = asked.map((v) => cosine(v, own));
  const lateness = asked.map((v) => cosine(v, ends) - cosine(v, starts));
  const document = ownness.indexOf(Math.max(...ownness));
  if (ownness[document] < OWN_DATE_SIMILARITY) return [];
  return dates
    .filter((_, i) => i !== document && lateness[i] - lateness[document] >= LATER_MARGIN)
    .map((later) => ({ earlier: dates[document], later }));
}

const dateOf = (leaf: Leaf | undefined) =>
  typeof leaf?.value === 'string' ? leaf.value : undefined;

/**
 * Where the chosen dates of an ordered pair are out of order, the best-supported pair of
 * answers that is in order, from each field's chosen answer and its alternatives (best
 * first); nothing changes when no such pair exists.
 */
export function keepDatesInOrder(
  orders: readonly DateOrder[],
  chosen: Map<string, Leaf>,
  alternatives: (field: ScalarField) => readonly Leaf[],
): void {
  for (const { earlier, later } of orders) {
    const first = dateOf(chosen.get(earlier.key));
    const second = dateOf(chosen.get(later.key));
    if (first === undefined || second === undefined || first <= second) continue;
    const options = (field: ScalarField) =>
      [chosen.get(field.key) as Leaf, ...alternatives(field)].filter((l) => dateOf(l));
    let best: { a: Leaf; b: Leaf; score: number } | undefined;
    for (const a of options(earlier)) {
      for (const b of options(later)) {
        if ((dateOf(a) as string) > (dateOf(b) as string)) continue;
        const score = a.confidence + b.confidence;
        if (!best || score > best.score) best = { a, b, score };
      }
    }
    if (!best) continue;
    chosen.set(earlier.key, best.a);
    chosen.set(later.key, best.b);
  }
}
