/**
 * Values written inside running text: the document's sentences are scored against what a
 * field asks (its name and description), and the value is read, by the field's type, from
 * the best sentences. A sentence is first chosen cheaply by the words it shares with the
 * field, rarer words counting more (its IDF over the document's own sentences), then the
 * multilingual sentence encoder reranks the few best; a text value is the name inside the
 * sentence that the field's description is nearest to ("New York" in "governed by the laws
 * of the State of New York"), less the words of the question itself ("State").
 */
import type { LayoutLine } from '../parse/layout.types.js';
import { cosine, type SentenceEncoder } from '../encoder/sentence-encoder.js';
import { lineCitation } from './citation.js';
import type { DocumentContext } from './document-context.js';
import { findAmounts } from './amounts.js';
import { findDates, inDocumentOrder } from './dates.js';
import type { Leaf, ScalarField } from './field-search.js';
import { conceptsOf } from './label-similarity.js';
import { opensWithLabel } from './label-owners.js';
import { paragraphsOf, readable, sentencesOf, type Paragraph, type Sentence } from './passages.js';
import { descriptionHead, humanize } from './text-match.js';
import { identifierOf, readValue } from './value-parsers.js';
import { entityKindOfWord } from './wordnet-kinds.js';

/** Sentences the encoder reranks per field (it costs ~10-20 ms per sentence). */
const RERANKED = 6;
const RERANKED_DEEP = 14;
/** Sentences the encoder embeds per document at most, over all its fields. */
const ENCODED_PER_DOCUMENT = 48;
const ENCODED_PER_DOCUMENT_DEEP = 112;
/** Cosines of the encoder mapped to 0..1 between these (a sentence is long and diluted). */
const UNRELATED = 0.15;
const ANSWERS = 0.6;
/** The confidence of a date taken for being the document's first. */
const FIRST_DATE_CONFIDENCE = 0.3;
/** Names inside a sentence looked at for a text value, at most. */
const MAX_NAMES = 8;

export interface SentenceSearch {
  lines: readonly LayoutLine[];
  paragraphs: Paragraph[];
  sentences: Sentence[];
  concepts: Set<string>[];
  idf: Map<string, number>;
  /** Indexes of the lines that stand alone as headings ("3 Total costs"). */
  headingLines: Set<number>;
  /** Sentences embedded so far for this document (see ENCODED_PER_DOCUMENT). */
  encoded: number;
}

/** The sentence index of a document: built once, when a field needs it. */
export function sentenceSearchOf(
  lines: readonly LayoutLine[],
  context: DocumentContext,
): SentenceSearch {
  const paragraphs = paragraphsOf(lines);
  const sentences = sentencesOf(paragraphs, lines, context.language);
  const concepts = sentences.map((s) => conceptsOf(s.text));
  const counts = new Map<string, number>();
  for (const set of concepts) for (const c of set) counts.set(c, (counts.get(c) ?? 0) + 1);
  const idf = new Map<string, number>();
  for (const [c, n] of counts) idf.set(c, Math.log((sentences.length + 1) / (n + 0.5)));
  const headingLines = new Set(paragraphs.filter((p) => p.heading).flatMap((p) => p.lines));
  return { lines, paragraphs, sentences, concepts, idf, headingLines, encoded: 0 };
}

/** What the field asks, as the words the sentences are matched on. */
function fieldConcepts(field: ScalarField): Set<string> {
  return conceptsOf(
    `${humanize(field.name)} ${field.text.title ?? ''} ${field.text.description ?? ''}`,
  );
}

/** The texts a sentence is compared with: the description, and a name of several words. */
function questionsOf(field: ScalarField): string[] {
  const name = humanize(field.name);
  const description = field.text.description?.trim() ?? '';
  const texts = description === '' ? [name] : [description];
  if (description !== '' && name.split(' ').length >= 2) texts.push(name);
  return texts;
}

/** Proper names in a sentence: runs of capitalized words ("People's Republic of China"). */
function namesIn(text: string): { text: string; index: number }[] {
  const names: { text: string; index: number }[] = [];
  const pattern =
    /\p{Lu}[\p{L}'’.-]*(?:(?:\s+(?:of|the|de|du|des|del|la|di|von|van|and|&))*\s+\p{Lu}[\p{L}'’.-]*)*/gu;
  for (const m of text.matchAll(pattern)) {
    const name = m[0].replace(/[.,]+$/u, '');
    if (name.length >= 2) names.push({ text: name, index: m.index });
    if (names.length >= MAX_NAMES * 2) break;
  }
  return names;
}

interface Picked {
  sentence: Sentence;
  value: unknown;
  score: number;
  ambiguous?: boolean;
}

/** The name of `sentence` nearest the field's description, less the question's own words. */
function nameAnswer(
  sentence: Sentence,
  field: ScalarField,
  asked: ReadonlySet<string>,
  encoder: SentenceEncoder | null,
): string | undefined {
  const trimmed: string[] = [];
  for (const name of namesIn(sentence.text)) {
    // Words the field's own text has ("State" of "the State of Delaware", "This
    // Agreement") are the question, not the answer; they are cut from the name's ends.
    const words = name.text.split(/\s+/);
    const isAsked = (w: string) =>
      /^(of|the|de|du|des|del|la|di|von|van|and|&)$/iu.test(w) ||
      [...conceptsOf(w)].every((c) => asked.has(c));
    while (words.length > 0 && isAsked(words[0])) words.shift();
    while (words.length > 0 && isAsked(words[words.length - 1])) words.pop();
    // "Province of British Columbia", "Commonwealth of Virginia": a word naming a kind of
    // place or body before "of" says what the name is, the name follows.
    if (words.length > 2 && /^of$/iu.test(words[1]) && entityKindOfWord(words[0].toLowerCase()))
      words.splice(0, 2);
    const text = words.join(' ');
    if (/\p{L}{2}/u.test(text) && !trimmed.includes(text)) trimmed.push(text);
    if (trimmed.length >= MAX_NAMES) break;
  }
  if (trimmed.length <= 1 || !encoder)
    return trimmed[0] && wholeName(sentence.text, trimmed[0], field);
  const head = descriptionHead(field.text.description ?? '') || humanize(field.name);
  const [question, ...vectors] = encoder.embed([head, ...trimmed.map(readable)]);
  let best = 0;
  vectors.forEach((v, i) => {
    if (cosine(question, v) > cosine(question, vectors[best])) best = i;
  });
  return wholeName(sentence.text, trimmed[best], field);
}

const NAME_WORDS = "\\p{Lu}[\\p{L}'’.-]*(?:\\s+\\p{Lu}[\\p{L}'’.-]*){0,3}";
/** A name set after the one found, past a comma, ending the phrase ("..., Canada."). */
const NAME_AFTER = new RegExp(`^,\\s+(${NAME_WORDS})(?=\\s*(?:[.,;:)]|$|\\s\\p{Ll}))`, 'u');
/** A name set before the one found, with a comma ("Geneva, ..."), after a lower-case word. */
const NAME_BEFORE = new RegExp(`(?:^|\\s\\p{Ll}+\\s+)(${NAME_WORDS}),\\s+$`, 'u');

const kindOfName = (phrase: string) =>
  entityKindOfWord((phrase.split(/\s+/).at(-1) ?? '').toLowerCase().replace(/[.'’]+$/u, ''));

/**
 * The whole noun phrase of a place the sentence names in two parts ("British Columbia,
 * Canada", "Geneva, Switzerland"), whichever part was found: the wider part (after the
 * comma) is one WordNet reads as a place, and the narrower is no party ("Acme
 * Corporation, Texas"); a field asking for a party keeps the name as found.
 */
function wholeName(text: string, name: string, field: ScalarField): string {
  if (field.entity !== undefined && field.entity !== 'place') return name;
  const at = text.indexOf(name);
  if (at < 0) return name;
  const joins = (narrow: string, wide: string) =>
    kindOfName(wide) === 'place' && kindOfName(narrow) !== 'organization';
  const after = NAME_AFTER.exec(text.slice(at + name.length));
  if (after && joins(name, after[1])) return `${name}, ${after[1]}`;
  const before = NAME_BEFORE.exec(text.slice(0, at));
  if (before && joins(before[1], name)) return `${before[1]}, ${name}`;
  return name;
}

/** Words before a code that say what it numbers ("your order number 4711"). */
const WORDS_BEFORE_CODE = 3;

/**
 * The code of a sentence that the field's own words stand closest before: "invoice
 * number INV-17 for your order number 4711" holds the invoice number and the order number.
 * Undefined when no code follows any of the field's words.
 */
function codeAfterAsked(text: string, asked: ReadonlySet<string>): string | undefined {
  const words = text.split(/\s+/);
  let best: { code: string; named: number } | undefined;
  words.forEach((word, i) => {
    const code = identifierOf(word);
    if (!code) return;
    const before = words.slice(Math.max(0, i - WORDS_BEFORE_CODE), i).join(' ');
    const named = [...conceptsOf(before)].filter((c) => asked.has(c)).length;
    if (named > 0 && (!best || named > best.named)) best = { code, named };
  });
  return best?.code;
}

/** Cents: a decimal part of two digits ends the number ("10.00", "1.250,00"). */
const CENTS = /\d[.,]\d{2}(?!\d)/u;

/**
 * The first amount a text writes as money, with its currency or its cents. A heading's
 * figures mostly number it ("3 Total costs", "3.2 Sum insured", "Section 3: Total costs",
 * "Invoice 42"): the figure it opens with is its number whatever it is written as.
 */
function moneyAmount(text: string, context: DocumentContext, heading: boolean): number | undefined {
  const amounts = findAmounts(text, context.decimalComma, context.readCurrency);
  const money = amounts.find((a) => {
    if (heading && /^[\s\p{P}]*$/u.test(text.slice(0, a.index))) return false;
    return a.currency !== undefined || CENTS.test(text.slice(a.index, a.index + a.length));
  });
  return money?.value;
}

/** Whether a sentence is a heading standing alone on its line. */
function isHeading(sentence: Sentence, search: SentenceSearch): boolean {
  return search.headingLines.has(sentence.lineIndex) && sentence.lastLine === sentence.lineIndex;
}

/** The value of the field's type in `sentence`, if it has one. */
function valueIn(
  sentence: Sentence,
  field: ScalarField,
  context: DocumentContext,
  asked: ReadonlySet<string>,
  encoder: SentenceEncoder | null,
  heading: boolean,
): { value: unknown; ambiguous?: boolean } | undefined {
  if (field.kind === 'date') {
    const date = findDates(sentence.text, context.dateOrder, context.calendar)[0];
    return date ? { value: date.iso, ambiguous: date.ambiguous || undefined } : undefined;
  }
  if (field.kind === 'text') {
    const name = nameAnswer(sentence, field, asked, encoder);
    return name ? { value: name } : undefined;
  }
  if (field.kind === 'boolean') return undefined;
  if (field.kind === 'identifier') {
    const code = codeAfterAsked(sentence.text, asked);
    if (code) return { value: code };
  }
  if (field.kind === 'money') {
    // A heading states money only written as money; in a sentence ("Invoice 42 Sum 10.00
    // EUR") an amount so written is the money, ahead of a bare figure that numbers or counts.
    const amount = moneyAmount(sentence.text, context, heading);
    if (amount !== undefined || heading)
      return amount === undefined ? undefined : { value: amount };
  }
  const read = readValue(sentence.text, field.kind, field.schema, context);
  return read ? { value: read.value, ambiguous: read.ambiguous } : undefined;
}

/**
 * Whether a text only says again what the field asks ("Governing Law." for governing_law):
 * all its words are the field's, or, for a field that names no party or place, any word
 * of the field's name is in it (a clause restating the question around its value).
 */
export function restatesField(
  text: string,
  field: ScalarField,
  asked: ReadonlySet<string> = fieldConcepts(field),
): boolean {
  const said = conceptsOf(text);
  if (said.size === 0 || [...said].every((c) => asked.has(c))) return true;
  if (field.entity) return false;
  const named = conceptsOf(`${humanize(field.name)} ${field.text.title ?? ''}`);
  return [...said].some((c) => named.has(c));
}

/** The number of a clause or list item ("8.", "8.1.", "(8)"), printed by its heading. */
const CLAUSE_NUMBER = /^\(?\d{1,3}(?:\.\d{1,3})*[.)]$/;

/**
 * Whether a labelled text value answers its field: it has words or figures, and does not
 * say the field's own words again ("Governing Law." under a "Governing Law" label is a heading;
 * "This Agreement shall be governed by..." is the clause the value is in).
 */
export function answersText(leaf: Leaf, field: ScalarField): boolean {
  if (typeof leaf.value !== 'string') return true;
  // Figures without words ("42", "05.03.2024") cannot say the field's words again: they
  // are the value printed beside the label ("Rechnungsnummer: 42"), unless they number the
  // clause the label heads ("8.").
  if (!/\p{L}{2}/u.test(leaf.value))
    return /\p{N}/u.test(leaf.value) && !CLAUSE_NUMBER.test(leaf.value.trim());
  return !restatesField(leaf.value, field);
}

/** Whether a sentence could hold a value of the field's kind, before reading it. */
function couldHold(
  sentence: Sentence,
  field: ScalarField,
  context: DocumentContext,
  heading: boolean,
): boolean {
  if (field.kind === 'money' && heading)
    return moneyAmount(sentence.text, context, true) !== undefined;
  switch (field.kind) {
    case 'date':
      return findDates(sentence.text, context.dateOrder, context.calendar).length > 0;
    case 'text':
      return /\p{Lu}/u.test(sentence.text);
    case 'boolean':
      return false;
    default:
      return readValue(sentence.text, field.kind, field.schema, context) !== null;
  }
}

/**
 * Whether a sentence opens with a label withheld from the field, or runs over a line that
 * does ("ACME Supplies Ltd" over "Invoice Number: 4711" read as one sentence): the value
 * after the label is the label's, withheld as the label is.
 */
function holdsWithheldLabel(
  sentence: Sentence,
  lines: readonly LayoutLine[],
  labels: ReadonlySet<string>,
): boolean {
  if (labels.size === 0) return false;
  if (opensWithLabel(sentence.text, labels)) return true;
  for (let k = sentence.lineIndex + 1; k <= sentence.lastLine; k++)
    if (opensWithLabel(lines[k]?.text ?? '', labels)) return true;
  return false;
}

/**
 * The best sentence answer for `field`, or undefined when no sentence shares a word with
 * what the field asks or none holds a value of its type.
 */
export function searchSentences(
  search: SentenceSearch,
  field: ScalarField,
  context: DocumentContext,
  encoder: SentenceEncoder | null,
  deep: boolean,
  withheldLabels: ReadonlySet<string> = new Set(),
): Leaf | undefined {
  const asked = fieldConcepts(field);
  if (asked.size === 0) return undefined;
  const weight = [...asked].reduce((sum, c) => sum + (search.idf.get(c) ?? 0), 0);
  if (weight <= 0) return undefined;
  const shortlist: { sentence: Sentence; lexical: number }[] = [];
  search.sentences.forEach((sentence, i) => {
    let shared = 0;
    for (const c of search.concepts[i]) if (asked.has(c)) shared += search.idf.get(c) ?? 0;
    if (shared > 0) shortlist.push({ sentence, lexical: shared / weight });
  });
  shortlist.sort((a, b) => b.lexical - a.lexical || a.sentence.order - b.sentence.order);
  const typed = shortlist
    .filter(
      (s) =>
        couldHold(s.sentence, field, context, isHeading(s.sentence, search)) &&
        !holdsWithheldLabel(s.sentence, search.lines, withheldLabels),
    )
    .slice(0, deep ? RERANKED_DEEP : RERANKED);
  if (typed.length === 0) return undefined;
  let scores = typed.map((s) => s.lexical);
  // The encoder's work per document is bounded: a schema of many unlabelled fields does
  // not multiply it; past the budget the shared words alone decide.
  const budget = deep ? ENCODED_PER_DOCUMENT_DEEP : ENCODED_PER_DOCUMENT;
  if (encoder && search.encoded + typed.length <= budget) {
    search.encoded += typed.length;
    const questions = encoder.embed(questionsOf(field));
    const vectors = encoder.embed(typed.map((s) => readable(s.sentence.text)));
    scores = vectors.map((v, i) => {
      const similarity = Math.max(...questions.map((q) => cosine(q, v)));
      const encoded = Math.min(1, Math.max(0, (similarity - UNRELATED) / (ANSWERS - UNRELATED)));
      return 0.75 * encoded + 0.25 * typed[i].lexical;
    });
  }
  const order = scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a]);
  for (const i of order) {
    const sentence = typed[i].sentence;
    const found = valueIn(sentence, field, context, asked, encoder, isHeading(sentence, search));
    if (!found) continue;
    const picked: Picked = { sentence: typed[i].sentence, score: scores[i], ...found };
    return leafOf(picked, search.lines);
  }
  return undefined;
}

function leafOf(picked: Picked, lines: readonly LayoutLine[]): Leaf {
  const cited = lines.slice(picked.sentence.lineIndex, picked.sentence.lastLine + 1);
  return {
    kind: 'leaf',
    value: picked.value,
    citations: cited.map((line) => lineCitation(line, 'Text')),
    confidence: Math.min(1, picked.score),
    ...(picked.ambiguous ? { ambiguous: true } : {}),
  };
}

/** The document's first date, read from its sentences; low-confidence, as a fallback is. */
export function firstDate(search: SentenceSearch, context: DocumentContext): Leaf | undefined {
  // A date written in the document's order comes before one valid only in the other (a code).
  let disagreeing: Leaf | undefined;
  for (const sentence of search.sentences) {
    for (const date of findDates(sentence.text, context.dateOrder, context.calendar)) {
      const leaf = {
        ...leafOf({ sentence, value: date.iso, score: FIRST_DATE_CONFIDENCE }, search.lines),
        ...(date.ambiguous ? { ambiguous: true } : {}),
      };
      if (inDocumentOrder(date, context.dateOrder)) return leaf;
      disagreeing ??= leaf;
    }
  }
  return disagreeing;
}
