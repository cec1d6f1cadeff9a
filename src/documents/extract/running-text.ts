/**
 * The running-text search of the schema-guided engine: fields no label answered (or a
 * label answered weakly) are looked for in the document's sentences, and a title field in
 * its title line.
 */
import type { LayoutLine } from '../parse/layout.types.js';
import { cosine, sentenceEncoder, type SentenceEncoder } from '../encoder/sentence-encoder.js';
import { lineCitation } from './citation.js';
import type { DocumentContext } from './document-context.js';
import type { Leaf, ScalarField } from './field-search.js';
import { readable } from './passages.js';
import {
  answersText,
  firstDate,
  searchSentences,
  sentenceSearchOf,
  type SentenceSearch,
} from './sentence-search.js';
import { humanize } from './text-match.js';
import { documentTitle } from './unlabelled.js';

/** Below this a text value found by a label is compared with the sentences' answer. */
const WEAK_TEXT_LABEL = 0.6;
/** The confidence of a title read from the document's title line. */
const TITLE_CONFIDENCE = 0.6;
/**
 * Below this a sentence says too little about the field for its value to be taken; the
 * field is left to the unlabelled fallbacks (the document's first date), or null.
 */
const SENTENCE_ANSWER = 0.45;
const SENTENCE_DATE_ANSWER = 0.6;

/**
 * Fields no label answered are looked for in the document's running text: a title field
 * takes the document's title line, other fields the value of their type in the sentence
 * that says what they ask.
 */
export function searchRunningText(
  fields: readonly ScalarField[],
  assigned: Map<string, Leaf>,
  lines: readonly LayoutLine[],
  context: DocumentContext,
  deep: boolean,
  withheld: ReadonlyMap<string, ReadonlySet<string>>,
): void {
  let search: SentenceSearch | undefined;
  const sentences = () => (search ??= sentenceSearchOf(lines, context));
  const encoder = sentenceEncoder();
  const given = new SentenceAnswers(assigned);
  for (const field of fields) {
    const current = assigned.get(field.key);
    // A label's value that only says the field's words again ("Title" beside "Title" in a
    // signature block) is no value of it.
    const restates = current !== undefined && !answersText(current, field);
    if (field.heading) {
      const title = documentTitle(
        sentences().paragraphs,
        lines,
        field.text.description ?? humanize(field.name),
      );
      if (title && (!current || restates || titleFitsBetter(field, title.text, current, encoder)))
        assigned.set(field.key, {
          kind: 'leaf',
          value: title.text,
          citations: [lineCitation(title.line, 'Text')],
          confidence: TITLE_CONFIDENCE,
        });
      continue;
    }
    // A party or a place unlabelled is the letterhead's (the fallbacks). A date, an
    // amount or a code beside a label is the document's own word for the field; a text a
    // label gave weakly may be a heading's next line, and a sentence can say better.
    if (field.entity) continue;
    const restated = field.kind === 'text' && restates;
    const weakText = field.kind === 'text' && (current?.confidence ?? 0) < WEAK_TEXT_LABEL;
    if (current !== undefined && !restated && !weakText) continue;
    const found = searchSentences(
      sentences(),
      field,
      context,
      encoder,
      deep,
      withheld.get(field.key),
    );
    const better = found !== undefined && found.confidence > (current?.confidence ?? 0);
    // The document's own date is its first one (the fallback) unless a sentence says
    // outright that its date is the one asked for ("This lease ends on ...").
    const needed = field.kind === 'date' ? SENTENCE_DATE_ANSWER : SENTENCE_ANSWER;
    if (found && found.confidence >= needed && (restated || better)) {
      if (current !== undefined || given.take(field, found)) assigned.set(field.key, found);
      continue;
    }
    // What only restates the field, or runs on for sentences, is no value of it.
    if (restated || (weakText && current !== undefined && runsOn(current)))
      assigned.delete(field.key);
    // A date broken over two lines ("the 14th day / of July, 2021") is whole in its sentence.
    const first = field.kind === 'date' && !current ? firstDate(sentences(), context) : undefined;
    if (first) assigned.set(field.key, first);
  }
}

/**
 * A code or a name read from one sentence answers one field, as a label's does (see
 * assignFields): the field whose question the sentence fits best. "Thank you for your
 * order number 4711" answers the order number, not also an invoice number the document
 * does not print.
 */
class SentenceAnswers {
  private readonly byValue = new Map<string, { field: string; confidence: number }>();

  constructor(private readonly assigned: Map<string, Leaf>) {}

  /**
   * Whether `field`, which had no answer, takes `found`; a field that took the same value
   * from the same sentence less surely gives it up.
   */
  take(field: ScalarField, found: Leaf): boolean {
    if (field.kind !== 'identifier' && field.kind !== 'text') return true;
    const at = found.citations[0]?.bbox;
    const key = `${String(found.value)}\u0000${at ? `${at.page}:${at.top}` : ''}`;
    const holder = this.byValue.get(key);
    if (holder && holder.confidence >= found.confidence) return false;
    if (holder) this.assigned.delete(holder.field);
    this.byValue.set(key, { field: field.key, confidence: found.confidence });
    return true;
  }
}

/** A text value this long is a passage a label happened to stand above, not a value. */
const PASSAGE_WORDS = 30;

function runsOn(leaf: Leaf): boolean {
  return typeof leaf.value === 'string' && leaf.value.split(/\s+/).length > PASSAGE_WORDS;
}

/**
 * Whether the document's title answers a title field better than the value a label gave
 * it ("Title: Vice President" under a signature names a person's office, not the
 * document's): the encoder puts it nearer the field's description.
 */
function titleFitsBetter(
  field: ScalarField,
  title: string,
  labelled: Leaf,
  encoder: SentenceEncoder | null,
): boolean {
  if (!encoder || typeof labelled.value !== 'string') return labelled.value === null;
  const [question, ofTitle, ofLabelled] = encoder.embed([
    field.text.description ?? field.name,
    readable(title),
    readable(labelled.value),
  ]);
  return cosine(question, ofTitle) > cosine(question, ofLabelled);
}
