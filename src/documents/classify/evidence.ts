/**
 * The evidence a document gives for each criterion of each category, three kinds measured
 * the same way for any category:
 * - semantic: the sentence encoder's cosine between the criterion and the passage of the
 *   document that matches it best (passages: chunks of its text and `document_metadata`);
 * - layout: the same with the sentences describing the document's form (layout.ts);
 * - lexical: the criterion's words found in the document (lexical.ts), only where the
 *   document and the criteria are in the same language;
 * - opening (classification of a whole document): the cosine between the criterion and the
 *   document's opening passage, its title and first lines;
 * - the category's name read the same ways, as one more criterion.
 */
import { cosine, sentenceEncoder } from '../encoder/sentence-encoder.js';
import type { ClassificationCategory } from './classify.types.js';
import { allLines, documentChunks, selectChunks, type Chunk } from './chunks.js';
import { detectLanguage, documentLanguage, type Language } from './language.js';

import { bagOf, lexicalMatch, termsOf, weightKeys, type TermBag } from './lexical.js';

export interface CriterionEvidence {
  /** Best cosine between the criterion and a passage, -1..1 (0 without the encoder). */
  semantic: number;
  /** Index of that passage in `DocumentEvidence.passages`, -1 if none. */
  passage: number;
  /** Weighted share of the criterion's words found, 0..1. */
  lexical: number;
  /** Best cosine between the criterion and a sentence describing the document's form. */
  layout: number;
  /** Cosine between the criterion and the document's opening passage (when read). */
  opening?: number;
}

export interface CategoryEvidence {
  criteria: CriterionEvidence[];
  label: CriterionEvidence;
}

export interface Passage {
  text: string;
  /** Page index of a chunk; -1 for metadata and the form's description. */
  page: number;
}

/** How a reading's evidence is gathered (gatherEvidence). */
export interface EvidenceOptions {
  /** Also each criterion's cosine with the opening passage (`passages[0]`, a chunk). */
  opening: boolean;
  /** Lexical evidence counts this much when the document's language is not the criteria's. */
  crossLanguageLexical: number;
}

/**
 * A page read alone (split): its best passage and half its lexical evidence across
 * languages (record 0301).
 */
export const PAGE_READING: EvidenceOptions = {
  opening: false,
  crossLanguageLexical: 0.5,
};

/**
 * A whole document read for classification (record 0390). Its title and first lines say
 * what it is more than any passage further in, in any language: the opening is evidence of
 * its own. Lexical evidence across languages counts for nothing: word overlap then finds only
 * shared names, loanwords and codes, which say nothing of what the document is, and a
 * category whose criteria happen to share one must not gain over one whose criteria cannot;
 * the sentence encoder reads across languages.
 */
export const DOCUMENT_READING: EvidenceOptions = {
  opening: true,
  crossLanguageLexical: 0,
};

/** `document_metadata` counts this much more than the same words in the document. */
const METADATA_WEIGHT = 1.5;

/** A category's name as words ("meeting_minutes" -> "meeting minutes"). */
export function labelText(category: string): string {
  return category.replace(/[_-]+/g, ' ').trim();
}

/**
 * A category's name as the encoder reads it: a sentence saying the document is one. A bare
 * name ("statute", "recipe") is a word, not a description, and sits in the encoder's space
 * far from the passages of a document of its kind; in a sentence of the same form for every
 * category it is compared as one more statement about the document (measured on both
 * development sets: docs/benchmarks.md).
 */
export function labelSentence(category: string): string {
  return `A document that is a ${labelText(category)}.`;
}

/** Texts the lexical evidence reads for a schema: per category, its name, then its criteria. */
function schemaTexts(schema: readonly ClassificationCategory[]): string[][] {
  return schema.map((entry) => [labelText(entry.category), ...entry.criteria]);
}

/**
 * The passages of a document: its chunks, its metadata and, with a `lineBudget`, single
 * lines too (a criterion about one field or row matches its line better than a chunk).
 */
export function passagesOf(
  pages: readonly string[],
  metadata: string | undefined,
  chunkBudget: number,
  lineBudget = 0,
): Passage[] {
  const chunks: Chunk[] = [
    ...documentChunks(pages, chunkBudget),
    ...selectChunks(allLines(pages), lineBudget),
  ];
  const passages: Passage[] = chunks.map((chunk) => ({ text: chunk.text, page: chunk.page }));
  if (metadata) passages.push({ text: metadata, page: -1 });
  return passages;
}

function bestMatch(query: Float32Array, passages: readonly Float32Array[]): [number, number] {
  let best = -1;
  let at = -1;
  passages.forEach((vector, index) => {
    const value = cosine(query, vector);
    if (value > best) [best, at] = [value, index];
  });
  return at < 0 ? [0, -1] : [best, at];
}

/** Lexical reading of a document in `language`: its stems, and metadata's at METADATA_WEIGHT. */
export function documentBag(
  pages: readonly string[],
  metadata: string | undefined,
  language: Language = documentLanguage(pages, metadata),
): TermBag {
  const bag = bagOf(termsOf(pages.join('\n'), language, 'all'));
  if (metadata) bagOf(termsOf(metadata, language, 'all'), METADATA_WEIGHT, bag);
  return bag;
}

/** What is read of a document, once, for all categories. */
export interface DocumentReading {
  passages: readonly Passage[];
  /** Its words (lexical evidence). */
  bag: TermBag;
  /** Its pages: lexical saturation is by the average page. */
  pageCount: number;
  /** Sentences describing the document's form (layout.ts). */
  form: readonly string[];
  /** The language its words are stemmed in. */
  language?: Language;
}

/** The evidence of each category of `schema` in a document, gathered as `options` say. */
export function gatherEvidence(
  schema: readonly ClassificationCategory[],
  { passages, bag, pageCount, form, language }: DocumentReading,
  options: EvidenceOptions = PAGE_READING,
): CategoryEvidence[] {
  const { opening, crossLanguageLexical } = options;
  const texts = schemaTexts(schema);
  const encoder = sentenceEncoder();
  const passageVectors = encoder ? encoder.embed(passages.map((p) => p.text)) : [];
  const formVectors = encoder ? encoder.embed(form) : [];
  const openingVector = opening && (passages[0]?.page ?? -1) >= 0 ? passageVectors[0] : undefined;
  const criteriaLanguage = detectLanguage(texts.flat().join('. '));
  const keys = weightKeys(
    texts.map((group) => group.map((text) => termsOf(text, criteriaLanguage, 'content-or-all'))),
  );
  const length = Math.max(1, bag.length / Math.max(1, pageCount));
  const lexicalFactor =
    language !== undefined && language !== criteriaLanguage ? crossLanguageLexical : 1;
  return texts.map((group, c) => {
    const vectors = encoder
      ? encoder.embed([labelSentence(schema[c].category), ...group.slice(1)])
      : [];
    const evidence = group.map((_, i): CriterionEvidence => {
      const [semantic, passage] = encoder ? bestMatch(vectors[i], passageVectors) : [0, -1];
      return {
        semantic,
        passage,
        lexical: lexicalFactor * lexicalMatch(keys[c][i], bag, length),
        layout: encoder && formVectors.length > 0 ? bestMatch(vectors[i], formVectors)[0] : 0,
        ...(opening ? { opening: openingVector ? cosine(vectors[i], openingVector) : 0 } : {}),
      };
    });
    return { label: evidence[0], criteria: evidence.slice(1) };
  });
}

/**
 * The evidence of `deep` with each criterion's (and name's) semantic evidence averaged with
 * that of `other`, another reading of the same document under the same schema.
 */
export function meanSemantic(
  deep: readonly CategoryEvidence[],
  other: readonly CategoryEvidence[],
): CategoryEvidence[] {
  const mean = (a: CriterionEvidence, b: CriterionEvidence): CriterionEvidence => ({
    ...a,
    semantic: (a.semantic + b.semantic) / 2,
  });
  return deep.map((category, c) => ({
    label: mean(category.label, other[c].label),
    criteria: category.criteria.map((criterion, i) => mean(criterion, other[c].criteria[i])),
  }));
}
