import { sentenceEncoder } from '../encoder/sentence-encoder.js';
import type {
  CategoryScore,
  ClassificationCategory,
  ClassifyInput,
  ClassifyOutput,
  PageText,
} from './classify.types.js';
import { categoryConfidences, chooseCategory, isHigh } from './confidence.js';
import { separateNeighbours } from './near-neighbours.js';
import {
  DEEP_DOCUMENT_READING,
  documentBag,
  DOCUMENT_READING,
  gatherEvidence,
  passagesOf,
  type CategoryEvidence,
  type DocumentReading,
  type Passage,
  wholePages,
} from './evidence.js';
import { layoutWithinContent } from './form-shortlist.js';
import { categoryScore, strength } from './fusion.js';
import { groupOf } from './grouping.js';
import { documentLanguage, warmUpLanguage } from './language.js';
import { describeLayout, layoutProfile, type PageDimensions } from './layout.js';
import { describeRegister, registerProfile } from './register.js';
import { clipLongWords } from './long-words.js';
import { stemmerFor } from './stemmers.js';

/**
 * Passages of the document each model reads: Deep Classify (`accurate`) reads up to 160
 * chunks (most of a long document: its sections, not only its beginning) and counts which
 * category the passages it reads beyond the default model read as (DEEP_DOCUMENT_READING,
 * passagesBeyond), reads images more thoroughly
 * (classify.task.ts) and weighs near neighbours again on what tells them apart
 * (near-neighbours.ts). More single lines were measured to add noise rather than evidence
 * (docs/benchmarks.md).
 */
const CHUNK_BUDGET = { default: 32, accurate: 160 } as const;
const LINE_BUDGET = { default: 24, accurate: 24 } as const;
const READING = { default: DOCUMENT_READING, accurate: DEEP_DOCUMENT_READING } as const;

/** Loads the sentence encoder, language model and stemmers now, so no request waits. */
export function warmUpClassifier(): void {
  warmUpLanguage();
  stemmerFor('en');
  sentenceEncoder()?.embed(['warm-up']);
}

function pageText(page: PageText): string {
  return typeof page === 'string' ? page : page.text;
}

function pageSize(page: PageText): PageDimensions | undefined {
  return typeof page === 'string' ? undefined : page.size;
}

/**
 * Classifies the text of a document's pages into one category of the schema. Pure and
 * deterministic: plain data in, plain data out, so it runs the same inline and in an
 * executor. Ties are broken by content, never by the order of the schema (confidence.ts).
 */
export function classify(input: ClassifyInput): ClassifyOutput {
  const schema = input.classificationSchema;
  const scores = scoreCategories(input);
  const best = chooseCategory(
    scores,
    schema.map((entry) => entry.category),
  );
  const category = best >= 0 ? schema[best].category : null;
  const confidences = categoryConfidences(scores);
  const output: ClassifyOutput = {
    result: { category },
    response_confidence: {
      categories: schema.map((entry, index) => ({
        category: entry.category,
        confidence: confidences[index],
        criteria_confidence: entry.criteria.map((criterion, i) => ({
          criterion,
          confidence: isHigh(scores[index].criteria[i]) ? ('high' as const) : ('low' as const),
        })),
      })),
    },
    usage: { num_pages: input.pages.length, num_categories: schema.length },
  };
  if (input.categoryGroups) {
    output.extra_metadata = { grouping: groupOf(category, input.categoryGroups) };
  }
  return output;
}

/**
 * What a model reads of a document (clipped to linear-time words, see clipLongWords);
 * `sizes[i]`, when known, is the size of `pages[i]`.
 */
export function readDocument(
  pages: readonly string[],
  metadata: string | undefined,
  chunkBudget: number,
  lineBudget = 0,
  sizes: readonly (PageDimensions | undefined)[] = [],
): DocumentReading {
  const language = documentLanguage(pages, metadata);
  return {
    passages: passagesOf(pages, metadata, chunkBudget, lineBudget),
    bag: documentBag(pages, metadata, language),
    pageCount: pages.length,
    form: describeLayout(layoutProfile(pages, sizes)),
    language,
  };
}

/**
 * Indices of the passages of `reading` that are not in `first`: what Deep Classify reads of
 * a document beyond the default model. Their votes are its evidence of its own; the
 * passages both read already decided the default answer (record 0428). A document short
 * enough for the default model to read whole has none.
 */
function passagesBeyond(reading: readonly Passage[], first: readonly Passage[]): number[] {
  const read = new Set(first.map((passage) => passage.text));
  return reading.flatMap((passage, k) => (read.has(passage.text) ? [] : [k]));
}

/** What `scoreCategories` reads: the schema as scored and each category's evidence. */
export interface SchemaEvidence {
  schema: ClassificationCategory[];
  evidence: CategoryEvidence[];
  /** Whether any text was read (a passage of the pages or of `document_metadata`). */
  textRead: boolean;
}

/** The evidence of each category of the schema in the document, in schema order. */
export function schemaEvidence(input: ClassifyInput): SchemaEvidence {
  const schema = input.classificationSchema.map((entry) => ({
    category: clipLongWords(entry.category),
    criteria: entry.criteria.map(clipLongWords),
  }));
  if (schema.length === 0) return { schema, evidence: [], textRead: false };
  const model = input.model ?? 'default';
  const pages = input.pages.map((page) => clipLongWords(pageText(page)));
  const metadata = clipLongWords(input.documentMetadata?.trim() ?? '') || undefined;
  const sizes = input.pages.map(pageSize);
  const reading = readDocument(pages, metadata, CHUNK_BUDGET[model], LINE_BUDGET[model], sizes);
  if (model === 'accurate') {
    const first = passagesOf(pages, metadata, CHUNK_BUDGET.default, LINE_BUDGET.default);
    reading.voters = passagesBeyond(reading.passages, first);
    reading.wholePages = wholePages(pages);
  }
  // How the whole text addresses its reader is part of its form (record 0544); split's pages
  // are read without it.
  reading.form = [
    ...reading.form,
    ...describeRegister(registerProfile(pages, reading.language ?? 'en')),
  ];
  const evidence = gatherEvidence(schema, reading, READING[model]);
  // One page of a size the reader does not know: its form is assumed, not seen.
  const unpaged = pages.length === 1 && !sizes[0];
  return {
    schema,
    evidence: unpaged ? layoutWithinContent(evidence) : evidence,
    textRead: reading.passages.length > 0,
  };
}

/**
 * A document with no text read (blank or unreadable pages) ties every category at the best
 * score: what differs between them is only how near each criterion's wording comes to the
 * sentences describing the form, which the calibration never saw alone and which rates a
 * criterion that contradicts the form as high as one that fits it (record 0491). The
 * confidence is then chance, and the tie rule (confidence.ts) still picks by the criteria's
 * strengths.
 */
function tiedWithoutText(scores: readonly CategoryScore[]): CategoryScore[] {
  const best = Math.max(...scores.map((score) => score.score));
  return scores.map((score) => ({ ...score, score: best }));
}

/**
 * The score of each category of the schema, in schema order, with each criterion's
 * strength, before the choice and the confidence are derived from them (evaluation reads
 * them too).
 */
export function scoreCategories(input: ClassifyInput): CategoryScore[] {
  const { schema, evidence, textRead } = schemaEvidence(input);
  if (schema.length === 0) return [];
  const scores = evidence.map((category) => ({
    score: categoryScore(category),
    criteria: category.criteria.map((criterion) => strength(criterion)),
  }));
  if (!textRead) return tiedWithoutText(scores);
  return input.model === 'accurate' ? separateNeighbours(schema, evidence, scores) : scores;
}
