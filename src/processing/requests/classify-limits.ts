import type { ClassifyLimits } from '../../config/processing.config.js';
import { RequestValidationError, type ValidationErrorItem } from '../../common/validation-error.js';
import type { ClassificationCategoryDto } from './shared-fields.dto.js';

/** At most this many characters of an over-long value are echoed back as `input`. */
const ECHO_CHARS = 100;
/** At most this many violations are listed. */
const MAX_ITEMS = 20;

function tooLong(
  loc: (string | number)[],
  value: string,
  max: number,
  setting: string,
): ValidationErrorItem {
  return {
    loc,
    msg: `String should have at most ${max} characters (${setting})`,
    type: 'string_too_long',
    input: value.length > ECHO_CHARS ? `${value.slice(0, ECHO_CHARS)}...` : value,
    ctx: { max_length: max, actual_length: value.length, setting },
  };
}

/** What the limits look at: a classify request, or a pipeline's classify step. */
export interface ClassifyLimited {
  classification_schema: ClassificationCategoryDto[];
  document_metadata: string | null;
}

/**
 * The limits of a classify request (422 before any job exists), the one place they are
 * checked for `/classify` and for a pipeline's classify step alike: the classifier's
 * tokenizer slows down with long words and every criterion is matched against every page,
 * so unbounded texts would hold an executor for minutes. `at` is where the classify fields
 * sit in the body (`['body']` for a request, `['body', 'steps', i, 'classify']` for a step).
 */
export function checkClassifyLimits(
  config: ClassifyLimited,
  limits: ClassifyLimits,
  at: (string | number)[] = ['body'],
): void {
  const issues: ValidationErrorItem[] = [];
  const schema = config.classification_schema;
  if (schema.length > limits.maxCategories) {
    issues.push({
      loc: [...at, 'classification_schema'],
      msg: `List should have at most ${limits.maxCategories} items after validation, not ${schema.length} (MAX_CATEGORIES)`,
      type: 'too_long',
      ctx: { field_type: 'List', max_length: limits.maxCategories, actual_length: schema.length },
    });
  }
  schema.forEach((entry, i) => {
    if (entry.category.length > limits.maxCategoryChars) {
      issues.push(
        tooLong(
          [...at, 'classification_schema', i, 'category'],
          entry.category,
          limits.maxCategoryChars,
          'MAX_CATEGORY_CHARS',
        ),
      );
    }
    entry.criteria.forEach((criterion, j) => {
      if (criterion.length > limits.maxCriterionChars) {
        issues.push(
          tooLong(
            [...at, 'classification_schema', i, 'criteria', j],
            criterion,
            limits.maxCriterionChars,
            'MAX_CRITERION_CHARS',
          ),
        );
      }
    });
  });
  const metadata = config.document_metadata;
  if (metadata && metadata.length > limits.maxDocumentMetadataChars) {
    issues.push(
      tooLong(
        [...at, 'document_metadata'],
        metadata,
        limits.maxDocumentMetadataChars,
        'MAX_DOCUMENT_METADATA_CHARS',
      ),
    );
  }
  if (issues.length) throw new RequestValidationError(issues.slice(0, MAX_ITEMS));
}
