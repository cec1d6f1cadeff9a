/**
 * The engines (code paths) each family's versions may name in `model_versions.engine`.
 * The registry refuses to start when a row names an engine the code does not have, so a
 * migration cannot ship a version nothing can run.
 */
export const LAYOUT_ENGINES = ['line-blocks-basic', 'line-blocks', 'paragraph-blocks'] as const;
export type LayoutEngine = (typeof LAYOUT_ENGINES)[number];

const EXTRACT_ENGINES = ['label-exact', 'label-normalized', 'label-typed'] as const;
export type ExtractEngine = (typeof EXTRACT_ENGINES)[number];

const DEEP_EXTRACT_ENGINES = ['fuzzy-synonyms', 'fuzzy-synonyms-described'] as const;
export type DeepExtractEngine = (typeof DEEP_EXTRACT_ENGINES)[number];

export const DEEP_SPLIT_ENGINES = ['page-evidence', 'page-evidence-continuity'] as const;
export type DeepSplitEngine = (typeof DEEP_SPLIT_ENGINES)[number];

const CLASSIFIER_ENGINES = ['lexical'] as const;

/** Edit: instructions matched to fields by their words and the sentence encoder. */
const EDIT_ENGINES = ['form-fill'] as const;
export type EditEngine = (typeof EDIT_ENGINES)[number];

export const ENGINES_BY_FAMILY: Record<string, readonly string[]> = {
  layout_model: LAYOUT_ENGINES,
  extract_model: EXTRACT_ENGINES,
  deep_extract_model: DEEP_EXTRACT_ENGINES,
  deep_split_model: DEEP_SPLIT_ENGINES,
  classifier: CLASSIFIER_ENGINES,
  edit_model: EDIT_ENGINES,
};
