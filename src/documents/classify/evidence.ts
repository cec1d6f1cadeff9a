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
import { LABEL_WEIGHT } from './fusion.js';
import { detectLanguage, documentLanguage, type Language } from './language.js';

import {
  bagOf,
  lexicalMatch,
  termsOf,
  weightKeys,
  wordTermsOf,
  type Term,
  type TermBag,
  type WeightedKey,
} from './lexical.js';
import { hasLetter, joinWords, wordsOf } from './words.js';

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
  /** Share of the document's passages that read as this category (when counted), 0..1. */
  votes?: number;
  /** The same share of its whole pages' votes (DocumentReading.wholePages), 0..1. */
  pageVotes?: number;
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
  /**
   * Share of the document's words that are the request's words (requestShare) at and above
   * which lexical evidence counts fully; below it, it counts in proportion (0: always fully).
   * A document whose text barely uses the request's vocabulary matches a criterion's words
   * only by chance: names, loanwords, codes, or text in another language than the detector
   * saw (a table of names called English in a German document); the encoder reads it.
   */
  lexicalCoverage: number;
  /**
   * This share of a passage's mean cosine with every statement of the request (each
   * category's name and criteria) is taken off its cosine with each of them: a passage that
   * is near everything (a generic sentence, a line of boilerplate) then speaks for no
   * category more than another, and what a passage says of one category is measured against
   * the request's other categories rather than as an absolute similarity.
   */
  centring: number;
  /** Also each category's share of the passages' votes (passageVotes). */
  votes: boolean;
}

/**
 * A page read alone (split): its best passage and half its lexical evidence across
 * languages (record 0301).
 */
export const PAGE_READING: EvidenceOptions = {
  opening: false,
  crossLanguageLexical: 0.5,
  lexicalCoverage: 0,
  centring: 0,
  votes: false,
};

/**
 * A whole document read for classification (record 0390). Its title and first lines say
 * what it is more than any passage further in, in any language: the opening is evidence of
 * its own. Lexical evidence across languages counts for nothing: word overlap then finds only
 * shared names, loanwords and codes, which say nothing of what the document is, and a
 * category whose criteria happen to share one must not gain over one whose criteria cannot;
 * the sentence encoder reads across languages. Within a language, lexical evidence counts
 * fully only when the request's words make up 5 % of the document's words or more (record
 * 0444).
 */
export const DOCUMENT_READING: EvidenceOptions = {
  opening: true,
  crossLanguageLexical: 0,
  lexicalCoverage: 0.05,
  centring: 0.5,
  votes: false,
};

/**
 * Deep Classify's reading of a whole document: also the votes of the passages it reads
 * beyond the default model's reading (records 0394, 0428).
 */
export const DEEP_DOCUMENT_READING: EvidenceOptions = { ...DOCUMENT_READING, votes: true };

/**
 * Softmax temperature of a passage's vote over the categories: a passage near one
 * category's statements and far from the others' gives it most of its vote, one equally
 * near several splits it (record 0394).
 */
const VOTE_TEMPERATURE = 0.03;

/** A page read whole is its first this many words (the encoder reads about as many). */
const WHOLE_PAGE_WORDS = 90;
/** Pages read whole, from the first. */
const WHOLE_PAGES = 16;

/**
 * Each page of a document of two pages or more read whole, as one passage: its first
 * WHOLE_PAGE_WORDS words with a letter. What a page as a whole reads as is evidence no
 * chunk of it gives (a slide, a form, a page of running text); a one-page document's page
 * is the document, which its passages already read, and its vote only repeats them
 * (record 0434).
 */
export function wholePages(pages: readonly string[]): Passage[] {
  if (pages.length < 2) return [];
  return pages.slice(0, WHOLE_PAGES).flatMap((text, page) => {
    const words = wordsOf(text).filter(hasLetter);
    return words.length > 0 ? [{ text: joinWords(words.slice(0, WHOLE_PAGE_WORDS)), page }] : [];
  });
}

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

/** Best of `cosines` less each passage's `offsets`: [value, index], [0, -1] if none. */
function bestMatch(cosines: readonly number[], offsets?: readonly number[]): [number, number] {
  let best = -Infinity;
  let at = -1;
  cosines.forEach((value, index) => {
    const centred = value - (offsets?.[index] ?? 0);
    if (centred > best) [best, at] = [centred, index];
  });
  return at < 0 ? [0, -1] : [best, at];
}

/** Each passage's mean cosine over `rows` (one row of passage cosines per statement). */
function passageMeans(rows: readonly (readonly number[])[], passages: number): number[] {
  const means = new Array<number>(passages).fill(0);
  for (const row of rows) row.forEach((value, k) => (means[k] += value / rows.length));
  return means;
}

/**
 * Each category's share of the passages' votes: a passage's nearness to a category is the
 * mean cosine with its criteria plus LABEL_WEIGHT x the cosine with its name, and it shares
 * one vote over the categories by a softmax of those at VOTE_TEMPERATURE. The shares sum to
 * 1 over the schema: they say which category most of the document reads as.
 */
function passageVotes(
  cosines: readonly (readonly (readonly number[])[])[],
  voters: readonly number[],
) {
  const votes = new Array<number>(cosines.length).fill(0);
  for (const k of voters) {
    const nearness = cosines.map(([label, ...criteria]) => {
      const mean = criteria.reduce((sum, row) => sum + row[k], 0) / Math.max(1, criteria.length);
      return mean + LABEL_WEIGHT * label[k];
    });
    const best = Math.max(...nearness);
    const exps = nearness.map((value) => Math.exp((value - best) / VOTE_TEMPERATURE));
    const sum = exps.reduce((total, value) => total + value, 0);
    exps.forEach((value, c) => (votes[c] += value / sum / voters.length));
  }
  return votes;
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

/** Share of the words of `bag` (its term count) that are one of `keys`, 0..1. */
export function requestShare(keys: readonly WeightedKey[][][], bag: TermBag): number {
  const request = new Set(keys.flat(2).map(({ key }) => key));
  let found = 0;
  for (const key of request) found += bag.counts.get(key) ?? 0;
  return bag.length > 0 ? Math.min(1, found / bag.length) : 0;
}

/**
 * How much lexical evidence counts in a document (0..1): `crossLanguageLexical` when its
 * language is not the criteria's, else in proportion to requestShare up to
 * `lexicalCoverage`.
 */
export function lexicalFactor(
  keys: readonly WeightedKey[][][],
  bag: TermBag,
  sameLanguage: boolean,
  { crossLanguageLexical, lexicalCoverage }: EvidenceOptions,
): number {
  if (!sameLanguage) return crossLanguageLexical;
  if (lexicalCoverage <= 0) return 1;
  return Math.min(1, requestShare(keys, bag) / lexicalCoverage);
}

/** The request's words as lexical evidence reads them (keysOf). */
export interface RequestKeys {
  /** Per category, per statement (its name, then its criteria): its weighted stems. */
  keys: WeightedKey[][][];
  /** The same statements' stems with the words they were read from, in order. */
  terms: Term[][][];
  /** The language the statements are read in. */
  language: Language;
}

/** The stems of each statement of `texts` (per category: its name, then its criteria). */
export function keysOf(texts: readonly (readonly string[])[]): RequestKeys {
  const language = detectLanguage(texts.flat().join('. '));
  const terms = texts.map((group) =>
    group.map((text) => wordTermsOf(text, language, 'content-or-all')),
  );
  const keys = weightKeys(terms.map((group) => group.map((text) => text.map((t) => t.key))));
  return { keys, terms, language };
}

/**
 * Lexical evidence of each statement of each category ([name, ...criteria]) in a document:
 * its weighted share of words found, times lexicalFactor.
 */
export function lexicalEvidence(
  texts: readonly (readonly string[])[],
  { bag, pageCount, language }: Pick<DocumentReading, 'bag' | 'pageCount' | 'language'>,
  options: EvidenceOptions,
): number[][] {
  const { keys, language: criteriaLanguage } = keysOf(texts);
  const length = Math.max(1, bag.length / Math.max(1, pageCount));
  const share = lexicalFactor(
    keys,
    bag,
    language === undefined || language === criteriaLanguage,
    options,
  );
  return keys.map((group) =>
    group.map((statement) => share * lexicalMatch(statement, bag, length)),
  );
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
  /** Indices of the passages whose votes are counted (passageVotes); all without it. */
  voters?: readonly number[];
  /** Its pages read whole (wholePages), whose votes are counted apart (`pageVotes`). */
  wholePages?: readonly Passage[];
}

/** The evidence of each category of `schema` in a document, gathered as `options` say. */
export function gatherEvidence(
  schema: readonly ClassificationCategory[],
  reading: DocumentReading,
  options: EvidenceOptions = PAGE_READING,
): CategoryEvidence[] {
  const { passages, form, voters, wholePages: pages } = reading;
  const { opening, centring } = options;
  const texts = schemaTexts(schema);
  const encoder = sentenceEncoder();
  const passageVectors = encoder ? encoder.embed(passages.map((p) => p.text)) : [];
  const formVectors = encoder ? encoder.embed(form) : [];
  const openingAt = opening && (passages[0]?.page ?? -1) >= 0 ? 0 : -1;
  const lexical = lexicalEvidence(texts, reading, options);
  // Per category, per statement (its name, then its criteria): cosines with every passage.
  const statements = schema.map((entry) =>
    encoder ? encoder.embed([labelSentence(entry.category), ...entry.criteria]) : [],
  );
  const cosines = statements.map((vectors) =>
    vectors.map((vector) => passageVectors.map((passage) => cosine(vector, passage))),
  );
  const offsets =
    centring > 0
      ? passageMeans(cosines.flat(), passageVectors.length).map((mean) => centring * mean)
      : undefined;
  const evidence = texts.map((group, c): CategoryEvidence => {
    const criteria = group.map((_, i): CriterionEvidence => {
      const row = cosines[c][i] ?? [];
      const [semantic, passage] = bestMatch(row, offsets);
      const vector = statements[c][i];
      return {
        semantic,
        passage,
        lexical: lexical[c][i],
        layout:
          vector && formVectors.length > 0
            ? bestMatch(formVectors.map((f) => cosine(vector, f)))[0]
            : 0,
        ...(opening
          ? { opening: openingAt >= 0 && vector ? row[openingAt] - (offsets?.[openingAt] ?? 0) : 0 }
          : {}),
      };
    });
    return { label: criteria[0], criteria: criteria.slice(1) };
  });
  if (!options.votes || !encoder) return evidence;
  const votes = passageVotes(cosines, voters ?? passages.map((_, k) => k));
  const pageVectors = pages?.length ? encoder.embed(pages.map((p) => p.text)) : [];
  const pageCosines = statements.map((vectors) =>
    vectors.map((vector) => pageVectors.map((page) => cosine(vector, page))),
  );
  const pageVotes = passageVotes(
    pageCosines,
    pageVectors.map((_, k) => k),
  );
  return evidence.map((category, c) => ({
    ...category,
    votes: votes[c],
    ...(pageVectors.length > 0 ? { pageVotes: pageVotes[c] } : {}),
  }));
}
