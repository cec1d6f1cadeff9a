/**
 * Bounds on the free-text and list fields of the edit and pipeline requests, checked in
 * their DTOs (422 naming the field and the bound) and published in the OpenAPI description
 * as `maxLength` / `maxItems` / `maxProperties`. Each sits far above what a person writes
 * or a real form holds; they exist so that a runaway body is refused in microseconds instead
 * of holding an executor until the task time limit. See
 * docs/decisions/0325-bounded-edit-and-pipeline-request-fields.md.
 */
export const REQUEST_LIMITS = {
  /** Characters of `edit_instructions` (a full page of instructions is about 3,000). */
  editInstructionChars: 20_000,
  /**
   * Pieces of `edit_instructions` between separators (lines, semicolons, bullets, commas):
   * each piece is matched against every field, so this bounds the matching work. A form
   * filled field by field needs one piece per field; the largest real forms have a few
   * hundred fields.
   */
  editInstructionPieces: 400,
  /** Boxes of a flat form's `form_schema`. */
  formSchemaWidgets: 2_000,
  /** Characters of a box's `description`. */
  widgetDescriptionChars: 2_000,
  /** Characters of a value written into one field or box. */
  fieldValueChars: 10_000,
  /** Characters of a short name: a model pin, a colour, a pipeline's id or name, a channel. */
  nameChars: 256,
  /** Webhook channels of one request. */
  webhookChannels: 100,
  /** Characters of a pipeline's description and of a split step's `split_rules`. */
  descriptionChars: 20_000,
  /**
   * Categories of a split (request or pipeline step) and of a pipeline classify step's
   * `category_groups`. A classify step's `classification_schema` is bounded instead by the
   * classify request's settings (MAX_CATEGORIES and the like, classify-limits.ts).
   */
  stepCategories: 200,
  /** Characters of a document password (PDF passwords are at most 127 bytes). */
  documentPasswordChars: 1_024,
} as const;
