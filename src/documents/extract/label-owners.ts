/**
 * A label printed in a document is evidence for the schema field it names, not for every
 * field it resembles: "Order number" is the order number's label, and an invoice number
 * the document does not print is not read from it. The fields of one schema are weighed
 * against each other by the label similarity the search already uses; nothing here is
 * written for a field or a kind of document.
 */
import type { Scored } from './field-search.js';
import { normalize } from './text-match.js';

/**
 * At or above this a label names a field (the encoder's nearest labels and the field's own
 * words score 1). Labels that only resemble a field ("Date" for a due date, "Grand total"
 * for a subtotal) score well below it and claim nothing.
 */
const NAMES_FIELD = 0.95;
/**
 * A label claimed by another field is withheld from this one only when it fits this one
 * clearly less: labels naming two fields alike ("Invoice No" for an invoice number and an
 * invoice total) stay evidence for both.
 */
const CLEARLY_LESS = 0.15;
/**
 * A label below NAMES_FIELD still names its field when it fits that field at least this
 * well and every other field of the schema at most WEAK_CLAIM_SHARE as well ("Purchase
 * Order No." 0.83 for an order number, 0.33 for an invoice number). "Date" (0.86 for a
 * due date, 0.68 for an invoice date) and "Grand total" (0.5 for a subtotal, 0.38 for a
 * total) fit two fields alike and claim nothing.
 */
const WEAK_CLAIM_FLOOR = 0.5;
const WEAK_CLAIM_SHARE = 0.5;

/** How well each field's candidates fit a label (the best of its candidates with it). */
function fitOf(scored: readonly Scored[], label: string): number {
  let fit = 0;
  for (const s of scored) if (s.candidate.label === label) fit = Math.max(fit, s.labelScore);
  return fit;
}

/** Whether the field's best label names it, outright or clearly more than any other field. */
function claims(field: string, best: Scored, ranked: ReadonlyMap<string, Scored[]>): boolean {
  if (best.labelScore >= NAMES_FIELD) return true;
  if (best.labelScore < WEAK_CLAIM_FLOOR) return false;
  for (const [other, scored] of ranked)
    if (other !== field && fitOf(scored, best.candidate.label) > best.labelScore * WEAK_CLAIM_SHARE)
      return false;
  return true;
}

/**
 * The labels each field may not take, by field key: a label is withheld from a field when
 * another field of the schema takes it as its best candidate, names it, and the label fits
 * this field clearly less. A label that another field only ranks below its own best one is
 * not that field's, and stays evidence for the rest ("Invoice amount" for a total when the
 * invoice number has its own label).
 */
export function labelsOfOtherFields(
  ranked: ReadonlyMap<string, Scored[]>,
): Map<string, Set<string>> {
  const claimed: { field: string; label: string; score: number }[] = [];
  for (const [field, scored] of ranked) {
    const best = scored[0];
    if (best && claims(field, best, ranked))
      claimed.push({ field, label: best.candidate.label, score: best.labelScore });
  }
  const withheld = new Map<string, Set<string>>();
  for (const [field, scored] of ranked) {
    for (const s of scored) {
      const isClaimed = claimed.some(
        (c) =>
          c.field !== field &&
          c.label === s.candidate.label &&
          s.labelScore <= c.score - CLEARLY_LESS,
      );
      if (!isClaimed) continue;
      const labels = withheld.get(field) ?? new Set<string>();
      labels.add(s.candidate.label);
      withheld.set(field, labels);
    }
  }
  return withheld;
}

/** The ranked candidates of each field without the labels other fields claim. */
export function withoutWithheld(
  ranked: ReadonlyMap<string, Scored[]>,
  withheld: ReadonlyMap<string, ReadonlySet<string>>,
): Map<string, Scored[]> {
  return new Map(
    [...ranked].map(([field, scored]) => {
      const labels = withheld.get(field);
      return [field, labels ? scored.filter((s) => !labels.has(s.candidate.label)) : scored];
    }),
  );
}

/**
 * A label as a sentence may open with it: whole, or its end after a point and a space, where
 * a sentence segmenter cuts it ("P.O. Number: 4711" is read as "… P.O." and "Number: 4711").
 */
function openingsOf(label: string): string[] {
  const openings = [normalize(label)];
  for (const point of label.matchAll(/\.\s+/gu))
    openings.push(normalize(label.slice(point.index + point[0].length)));
  return openings.filter((words) => words !== '');
}

/**
 * Whether a sentence of the running text opens with one of `labels` ("Order number: 4711"
 * read as a sentence): its value is that label's, withheld as the label is.
 */
export function opensWithLabel(sentence: string, labels: ReadonlySet<string>): boolean {
  const text = ` ${normalize(sentence)} `;
  for (const label of labels)
    if (openingsOf(label).some((words) => text.startsWith(` ${words} `))) return true;
  return false;
}
