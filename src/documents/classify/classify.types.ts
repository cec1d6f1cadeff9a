/** Plain-data types of the classification library (no Nest, usable in worker threads). */

export type ClassifyModel = 'default' | 'accurate';

/** The spec's ClassificationCategory. */
export interface ClassificationCategory {
  category: string;
  criteria: readonly string[];
}

/**
 * A page of text; `pageNumber` is informational (order is what counts); `size`, when the
 * reader knows it, feeds the layout evidence (orientation, paper size).
 */
export type PageText =
  | string
  | {
      pageNumber?: number;
      text: string;
      size?: { width: number; height: number; unit: 'pt' | 'px' };
    };

export interface ClassifyInput {
  pages: readonly PageText[];
  classificationSchema: readonly ClassificationCategory[];
  /** The request's `document_metadata`: extra text about the document. */
  documentMetadata?: string | null;
  /** The request's `category_groups`: group name -> category labels. */
  categoryGroups?: Readonly<Record<string, readonly string[]>> | null;
  model?: ClassifyModel;
}

export interface CriterionConfidence {
  criterion: string;
  confidence: 'high' | 'low';
}

export interface CategoryConfidence {
  category: string;
  /** Share of the category's criteria rated high, 0..1. */
  confidence: number;
  criteria_confidence: CriterionConfidence[];
}

/**
 * The classify result as DESIGN.md gives it, without `job_id`, `duration` and
 * `usage.credits`, which the job runner adds.
 */
export interface ClassifyOutput {
  /** null only when the schema has no categories. */
  result: { category: string | null };
  response_confidence: { categories: CategoryConfidence[] };
  usage: { num_pages: number; num_categories: number };
  extra_metadata?: { grouping: string };
}

/** What a model computes per category before the result is shaped. */
export interface CategoryScore {
  /** Ranking score; higher wins. */
  score: number;
  /** Per criterion, in schema order: match strength 0..1. */
  criteria: number[];
}
