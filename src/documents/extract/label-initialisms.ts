/**
 * A label qualified by an initialism that names another thing than the field ("PO No." for
 * an invoice number: a purchase order's number) is no evidence for that field, when the
 * label fits no field of the schema well. An initialism is read by its spelling (capitals
 * in a label written in lower case too, letters with points: "P.O.", or two or three
 * capitals before the identifier's word alone: "PO #"); an initialism's
 * last letter is its head word's first ("PO": purchase order), as English compounds end on
 * their head. Nothing here is written for a field or a kind of document.
 */
import { currencyOf } from './currency-table.js';
import type { Scored } from './field-search.js';
import { humanize, normalize } from './text-match.js';
import { IDENTIFIER_WORDS } from './value-parsers.js';

/** A label fitting some field of the schema at least this well is left to the search. */
const FITS_A_FIELD = 0.5;

/** Capitals alone ("PO", "VAT") or letters each with a point ("P.O."), as written. */
const INITIALISM = /(?<![\p{L}\p{N}])(?:\p{Lu}{2,4}|(?:\p{L}\.){2,4})(?![\p{L}\p{N}])/gu;
const DOTTED = /(?<![\p{L}\p{N}])(?:\p{L}\.){2,4}/u;

/**
 * How the initialisms of `label` are told from its words: letters with points are one
 * ("P.O. #"), and capitals are one in a label written in lower case too ("PO Number");
 * in a label in capitals alone only its first word, of two or three letters, when the label
 * ends on the identifier's own word ("PO #", "GST NO.", "VAT REG NO"): a word there names
 * what the number belongs to, and a short one is read as letters, the others as words.
 */
function toldFromWords(label: string): 'all' | 'first' | 'none' {
  if (DOTTED.test(label) || /\p{Ll}/u.test(label.replace(INITIALISM, ''))) return 'all';
  const words = normalize(label).split(' ');
  return words.length >= 2 &&
    /^\p{L}{2,3}$/u.test(words[0]) &&
    IDENTIFIER_WORDS.has(words[words.length - 1])
    ? 'first'
    : 'none';
}

/** The initialisms of a label, lower-cased without points ("P.O. No." -> "po"). */
export function initialismsOf(label: string): string[] {
  const told = toldFromWords(label);
  if (told === 'none') return [];
  const found: string[] = [];
  for (const [written] of label.matchAll(INITIALISM)) {
    const letters = written.replace(/\./g, '').toLowerCase();
    // A currency ("Total RM") or the identifier's own word ("ID", "NO", "REF") qualifies nothing.
    if (currencyOf(written) === undefined && !IDENTIFIER_WORDS.has(letters)) found.push(letters);
    if (told === 'first') break;
  }
  return found;
}

/** The words of a field's name and title that say what it belongs to ("invoice" of "invoice number"). */
function qualifiersOf(scored: Scored): string[] {
  const { name, title } = scored.field.text;
  return normalize(`${humanize(name)} ${title ?? ''}`)
    .split(' ')
    .filter((w) => w.length > 1 && !IDENTIFIER_WORDS.has(w));
}

/**
 * Whether an initialism may name the field: it is one of the field's words, or begins one
 * ("INV" of "invoice"), or its head letter begins one ("PO" for an order number).
 */
function mayName(initialism: string, qualifiers: readonly string[]): boolean {
  const head = initialism[initialism.length - 1];
  return qualifiers.some(
    (word) => word === initialism || word.startsWith(initialism) || word.startsWith(head),
  );
}

/**
 * The labels withheld from each field (by field key) because an initialism in them names
 * another thing than the field, and no field of the schema fits them at FITS_A_FIELD.
 */
export function labelsNamingOtherThings(
  ranked: ReadonlyMap<string, Scored[]>,
): Map<string, Set<string>> {
  const bestFit = new Map<string, number>();
  for (const scored of ranked.values())
    for (const s of scored)
      bestFit.set(s.candidate.label, Math.max(bestFit.get(s.candidate.label) ?? 0, s.labelScore));
  const withheld = new Map<string, Set<string>>();
  for (const [field, scored] of ranked) {
    for (const s of scored) {
      const label = s.candidate.label;
      if ((bestFit.get(label) ?? 0) >= FITS_A_FIELD) continue;
      const qualifiers = qualifiersOf(s);
      if (qualifiers.length === 0) continue;
      if (initialismsOf(label).every((initialism) => mayName(initialism, qualifiers))) continue;
      withheld.set(field, (withheld.get(field) ?? new Set<string>()).add(label));
    }
  }
  return withheld;
}
