/**
 * A label "<noun> No." is no evidence for a number field qualified by a noun of another
 * meaning: "Flight No." for an invoice number, "Invoice No." for a customer number. Such a
 * label fits every `*_number` field by its identifier's word (0.38), and the encoder fits
 * "<noun> Number" to any other "<noun> number" at 0.5-0.7 ("Customer Number" 0.62 for an
 * invoice number); whether the two nouns are related is read from the sentence encoder,
 * word to word, any language it reads ("Rechnungs Nr." for an invoice number). A noun the
 * field's description says ("The customer or debtor number") is the field's own whatever
 * the encoder reads: the request's words are the evidence of what it calls the thing.
 * A label written as one word ("Kundennummer", "Factuurnummer") is read as the words it is
 * compounded of (decompounding.ts). Nothing here is written for a field or a kind of
 * document.
 */
import { cosine, type SentenceEncoder } from '../encoder/sentence-encoder.js';
import { compoundParts } from './decompounding.js';
import type { Scored } from './field-search.js';
import { initialismsOf, isFunctionWord } from './label-initialisms.js';
import {
  descriptionHead,
  FUNCTION_WORDS,
  humanize,
  keepsLettersInOrder,
  normalize,
  stem,
} from './text-match.js';
import { IDENTIFIER_WORDS } from './value-parsers.js';
import { namesADocument, namesTheSameThing } from './wordnet-kinds.js';

/** At or above this a label names the field outright (label-owners.ts): its noun is the field's. */
const NAMES_FIELD = 0.95;
/**
 * Below this cosine a label's noun and the field's name other things ("flight" and
 * "invoice" 0.29, "seat" 0.22, "job" 0.26); related ones ("bill" 0.65, "document" 0.51,
 * "account" 0.57 for an invoice; "client" 0.88, "account" 0.43 for a customer) lie above.
 */
const RELATED = 0.4;
/**
 * A label's noun must bring it at least this share of the way from what the identifier's
 * word alone says of the field to naming it: "Seat Number" is as near "flight number" as
 * "number" alone is (0.662 both: the noun adds nothing, though "seat" and "flight" are
 * 0.45 apart as words), "Account Number" is 0.742 from "customer number" where "number" is
 * 0.693 (0.16 of the way).
 */
const NOUN_ADDS = 0.05;
/** At or above this cosine a compound's last part is the field's identifier's word ("nummer"). */
const SAME_WORD = 0.8;

/** "n°", "nº" and "№" as the identifier's word they stand for ("N° client"). */
function withNumberWords(label: string): string {
  return label.replace(/(?<!\p{L})[Nn][\u00b0\u00ba]\.?|\u2116/gu, ' number ');
}

/**
 * The words a label says besides the identifier's, which ends or opens it ("Flight No." ->
 * "flight", "N° client" -> "client"), or none.
 */
function nounsOf(label: string, language: string): string | undefined {
  const words = normalize(withNumberWords(label)).split(' ').filter(Boolean);
  const identifierAtAnEnd =
    IDENTIFIER_WORDS.has(words[words.length - 1]) || IDENTIFIER_WORDS.has(words[0]);
  if (words.length < 2 || !identifierAtAnEnd) return undefined;
  if (initialismsOf(label, language).length > 0) return undefined;
  const nouns = words.filter(
    (w) => !IDENTIFIER_WORDS.has(w) && !isFunctionWord(w, language) && /\p{L}{2}/u.test(w),
  );
  return nouns.length > 0 ? nouns.join(' ') : undefined;
}

/**
 * A label of one word compounded of a noun and a last part ("Kundennummer" -> "kunden",
 * "nummer"), or none.
 */
function compoundOf(
  label: string,
  encoder: SentenceEncoder,
): { nouns: string; head: string } | undefined {
  const words = normalize(label).split(' ').filter(Boolean);
  if (words.length !== 1) return undefined;
  const parts = compoundParts(words[0], encoder);
  if (parts.length < 2) return undefined;
  return { nouns: parts.slice(0, -1).join(' '), head: parts[parts.length - 1] };
}

/**
 * The field's words besides the identifier's ("invoice" of `invoice_number`), and the
 * identifier's word its name says ("number").
 */
function fieldNounsOf(scored: Scored): { nouns: string; identifier: string } | undefined {
  const { name, title } = scored.field.text;
  const words = normalize(`${humanize(name)} ${title ?? ''}`)
    .split(' ')
    .filter(Boolean);
  const identifier = words.findLast((w) => IDENTIFIER_WORDS.has(w));
  if (words.length < 2 || !identifier) return undefined;
  const nouns = words.filter((w) => !IDENTIFIER_WORDS.has(w));
  return nouns.length > 0 ? { nouns: nouns.join(' '), identifier } : undefined;
}

/** Words of a description's word shorter than this are told apart by their letters only. */
const SHORTEST_SHARED_BEGINNING = 4;

/**
 * The words a field's description names it by: the head of each of its clauses ("The
 * customer or debtor number, as the supplier's accounts keep it" -> customer, debtor), less
 * function words and the identifier's words. The words after a preposition say what the
 * field belongs to ("printed on the invoice"), not what it is; a clause opening with one
 * is all tail.
 */
function describedWords(description: string | undefined): string[] {
  if (!description) return [];
  return description
    .split(/[,;:()[\]]+/u)
    .flatMap((clause) => {
      // A stand-in first word: descriptionHead cuts at a preposition after the first word.
      const head = descriptionHead(`_ ${clause.trim()}`).slice(2);
      return normalize(head).split(' ');
    })
    .filter((w) => w.length >= 3 && !FUNCTION_WORDS.has(w) && !IDENTIFIER_WORDS.has(w));
}

/** Whether a label word is a word of the description, or the same word inflected. */
function described(word: string, words: readonly string[]): boolean {
  return words.some((d) => {
    if (d === word || stem(d) === stem(word)) return true;
    const [shorter, longer] = d.length <= word.length ? [d, word] : [word, d];
    return shorter.length >= SHORTEST_SHARED_BEGINNING && longer.startsWith(shorter);
  });
}

/** Whether a label word is or shortens a field word ("cust" of "customer", "inv" of "invoice"). */
function shortens(word: string, fieldWords: readonly string[]): boolean {
  return fieldWords.some((f) => {
    if (f === word || f.startsWith(word) || word.startsWith(f)) return true;
    return keepsLettersInOrder(word, f);
  });
}

/** Label nouns shorter than this are not looked up in WordNet. */
const SHORTEST_NOUN = 4;

const lastWord = (words: string): string => words.slice(words.lastIndexOf(' ') + 1);

/**
 * Whether a label numbers another thing than the document a field numbers: "Order No.",
 * "Account No.", "Debtor Number" for an invoice's number. A document is identified by its
 * own number, so a label's noun must name that document, what it is a kind of ("Document
 * No.") or a kind of it, as WordNet reads the two nouns; the encoder relates an order, an
 * account or a debtor to an invoice as subjects (0.47-0.59, and "<noun> number" 8-38 % of
 * the way to "invoice number", where "Document No." is 9 %), so it cannot tell them apart.
 * Only for a document's number (a party's number is printed under many other nouns: an
 * account, a membership) and only in English, the language WordNet reads ("Folio" is a
 * Spanish invoice's number and an English page number).
 */
function numbersAnotherThing(pair: Pair, language: string): boolean {
  if (language !== 'en') return false;
  const [labelNoun, fieldNoun] = [lastWord(pair.nouns), lastWord(pair.fieldNouns)];
  // A word this short may be a shortening ("Doc No.", "Ref No."), which WordNet reads as
  // another word (a doctor, a referee): the encoder's rules below read it.
  if (labelNoun.length < SHORTEST_NOUN || !namesADocument(fieldNoun)) return false;
  return namesTheSameThing(labelNoun, fieldNoun) === false;
}

interface Pair {
  field: string;
  label: string;
  nouns: string;
  fieldNouns: string;
  identifier: string;
  /** The last part of a label written as one word, which must be the identifier's word. */
  head?: string;
}

/**
 * The labels withheld from each field (by field key): "<noun> No." labels (or compounds of a
 * noun and the identifier's word) not naming it outright whose noun the encoder does not
 * relate to the field's, or relates no nearer than the identifier's word alone does.
 * Without an encoder nothing is withheld.
 */
export function labelsOfOtherNouns(
  ranked: ReadonlyMap<string, Scored[]>,
  encoder: SentenceEncoder | null,
  language = 'en',
): Map<string, Set<string>> {
  const withheld = new Map<string, Set<string>>();
  if (!encoder) return withheld;
  const pairs: Pair[] = [];
  for (const [field, scored] of ranked) {
    const description = describedWords(scored[0]?.field.text.description);
    for (const s of scored) {
      if (s.labelScore >= NAMES_FIELD) continue;
      const ofField = fieldNounsOf(s);
      if (!ofField) continue;
      const label = s.candidate.label;
      const apart = nounsOf(label, language);
      const compound = apart === undefined ? compoundOf(label, encoder) : undefined;
      const nouns = apart ?? compound?.nouns;
      if (!nouns) continue;
      const fieldWords = ofField.nouns.split(' ');
      if (nouns.split(' ').some((w) => shortens(w, fieldWords))) continue;
      if (nouns.split(' ').some((w) => described(w, description))) continue;
      pairs.push({
        field,
        label,
        nouns,
        fieldNouns: ofField.nouns,
        identifier: ofField.identifier,
        head: compound?.head,
      });
    }
  }
  // Embedded in three batches, each for the pairs the one before left undecided: the
  // encoder's cost is per call and per text, and most labels are settled by their nouns.
  const cosines = (texts: [string, string][]): number[] => {
    const distinct = [...new Set(texts.flat())];
    const vectors = new Map(encoder.embed(distinct).map((v, i) => [distinct[i], v]));
    return texts.map(([a, b]) => cosine(vectors.get(a)!, vectors.get(b)!));
  };
  const withhold = (p: Pair) =>
    withheld.set(p.field, (withheld.get(p.field) ?? new Set<string>()).add(p.label));
  // A compound whose last part is not the identifier's word ("Kundenname") is no "<noun> No.".
  const compounds = pairs.filter((p) => p.head !== undefined);
  const heads = cosines(compounds.map((p) => [p.head!, p.identifier]));
  const named = pairs.filter((p) => {
    if (p.head && heads[compounds.indexOf(p)] < SAME_WORD) return false;
    if (!numbersAnotherThing(p, language)) return true;
    withhold(p);
    return false;
  });
  const nouns = cosines(named.map((p) => [p.nouns, p.fieldNouns]));
  const related: Pair[] = [];
  named.forEach((p, i) => {
    if (nouns[i] < RELATED) withhold(p);
    else related.push(p);
  });
  // How near the field's name the label comes against how near the identifier's word alone.
  const fits = cosines(
    related.flatMap((p): [string, string][] => {
      const fieldName = `${p.fieldNouns} ${p.identifier}`;
      return [
        [p.identifier, fieldName],
        [`${p.nouns} ${p.identifier}`, fieldName],
      ];
    }),
  );
  related.forEach((p, i) => {
    const [alone, whole] = [fits[2 * i], fits[2 * i + 1]];
    if ((whole - alone) / (1 - alone) < NOUN_ADDS) withhold(p);
  });
  return withheld;
}
