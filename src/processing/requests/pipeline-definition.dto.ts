import { IsIn } from 'class-validator';
import {
  type ClassificationCategoryDto,
  classificationSchema,
  pageRange,
  type PageSelection,
} from './shared-fields.dto.js';
import {
  ExtractSettingsDto,
  InstructionsDto,
  INSTRUCTIONS_TO_SEND,
  ParseOptionsDto,
  SplitAlphaDto,
  SplitCategoryDto,
  splitDescription,
  SplitSettingsDto,
} from './operation-requests.dto.js';
import { REQUEST_LIMITS } from './request-limits.js';
import {
  Check,
  type CheckResult,
  checker,
  fail,
  isPlainObject,
  ok,
  prefix,
  Required,
} from './request-validation.js';
import { dict, list, model, notBlank, nullable, str, text } from './field-checkers.js';

const categories = REQUEST_LIMITS.stepCategories;

/**
 * A stored pipeline (`POST /pipelines`): parse options, then steps that work on the parsed
 * document, in order. Each step is one of extract, split or classify, with the fields of
 * that operation's request (without `input`); classify may carry `extract_by_category`, the
 * classify-then-extract branch: the extract of the category it chose.
 */

/** An extract step: the fields of an extract request that say what to extract. */
class ExtractStepDto {
  @Required(INSTRUCTIONS_TO_SEND)
  @Check(model(InstructionsDto))
  instructions!: InstructionsDto;

  @Check(model(ExtractSettingsDto), { optional: true })
  settings?: ExtractSettingsDto;
}

class SplitStepDto {
  @Required()
  @Check(splitDescription)
  split_description!: SplitCategoryDto[];

  @Check(text({ maxLength: REQUEST_LIMITS.descriptionChars }), { optional: true })
  split_rules?: string;

  @Check(model(SplitSettingsDto), { optional: true })
  settings?: SplitSettingsDto;

  /** Spec "Versioning": the deep split pin, at the step's top level as on a split request. */
  @Check(model(SplitAlphaDto), { optional: true })
  alpha?: SplitAlphaDto;
}

class ClassifyStepDto {
  /**
   * Its count and texts are bounded by the classify request's own settings (MAX_CATEGORIES
   * and the like), checked in classify-limits.ts when the pipeline is created and run.
   */
  @Required()
  @Check(classificationSchema({ minItems: 1 }))
  classification_schema!: ClassificationCategoryDto[];

  @IsIn(['default', 'accurate'])
  model: 'default' | 'accurate' = 'default';

  @Check(pageRange)
  page_range: PageSelection = null;

  @Check(nullable(str))
  document_metadata: string | null = null;

  @Check(dict(list(str, { maxItems: categories }), { maxEntries: categories }), {
    optional: true,
  })
  category_groups?: Record<string, string[]>;

  /**
   * The classify-then-extract branch: category label -> what to extract from such a document.
   * Each key is a category of `classification_schema` (checked on creation), so the branches
   * are bounded by MAX_CATEGORIES with it.
   */
  @Check(dict(model(ExtractStepDto)), { optional: true })
  extract_by_category?: Record<string, ExtractStepDto>;
}

const STEP_KINDS = ['extract', 'split', 'classify'] as const;

/** One step: an object with exactly one of `extract`, `split`, `classify`. */
class PipelineStepDto {
  @Check(model(ExtractStepDto), { optional: true })
  extract?: ExtractStepDto;

  @Check(model(SplitStepDto), { optional: true })
  split?: SplitStepDto;

  @Check(model(ClassifyStepDto), { optional: true })
  classify?: ClassifyStepDto;
}

const MAX_STEPS = 8;

const stepList = list(model(PipelineStepDto), { minItems: 1 });

const STEP_MODELS = {
  extract: model(ExtractStepDto),
  split: model(SplitStepDto),
  classify: model(ClassifyStepDto),
} as const;

/** A step that is a classify step extracting by category (the classify-then-extract branch). */
const BRANCH_STEP = {
  required: ['classify'],
  properties: { classify: { required: ['extract_by_category'] } },
};

/**
 * The rules across steps, stated as JSON Schema too so a client or generator reading the
 * description sends only definitions the service takes: one step of each kind at most (the
 * response has one place per kind), and no separate extract step beside a classify step that
 * extracts by category (the branch is the pipeline's extract).
 */
function stepRules(steps: Record<string, unknown>[]): CheckResult {
  const issues: CheckResult['issues'] = [];
  const seen = new Map<string, number>();
  let branchAt: number | undefined;
  for (const [index, step] of steps.entries()) {
    const kind = Object.keys(step)[0];
    const first = seen.get(kind);
    if (first !== undefined) {
      const msg = `A pipeline has at most one ${kind} step (step ${first} is one)`;
      issues.push(...prefix([index], fail('value_error', msg, step).issues));
    } else seen.set(kind, index);
    const classify = step.classify as { extract_by_category?: unknown } | undefined;
    if (classify?.extract_by_category !== undefined) branchAt ??= index;
  }
  const extractAt = seen.get('extract');
  if (branchAt !== undefined && extractAt !== undefined) {
    const msg = 'A pipeline whose classify step extracts by category has no separate extract step';
    issues.push(...prefix([extractAt], fail('value_error', msg, steps[extractAt]).issues));
  }
  return issues.length > 0 ? { issues } : ok(steps);
}

const pipelineSteps = checker(
  {
    type: 'array',
    minItems: 1,
    maxItems: MAX_STEPS,
    // Each step is exactly one kind: one branch per kind, so the description is generable
    // (an object with one of several optional keys is not, for a generator drawing objects).
    items: {
      oneOf: STEP_KINDS.map((kind) => ({
        type: 'object',
        properties: { [kind]: STEP_MODELS[kind].schema },
        required: [kind],
        additionalProperties: false,
      })),
    },
    allOf: [
      ...STEP_KINDS.map((kind) => ({
        contains: { required: [kind] },
        minContains: 0,
        maxContains: 1,
      })),
      { if: { contains: BRANCH_STEP }, then: { not: { contains: { required: ['extract'] } } } },
    ],
    description:
      'At most one step of each kind; a classify step with extract_by_category stands ' +
      'instead of an extract step.',
  },
  (v) => {
    const checked = stepList(v);
    if (checked.issues.length > 0) return checked;
    const steps = v as Record<string, unknown>[];
    if (steps.length > MAX_STEPS) {
      return fail('too_long', `List should have at most ${MAX_STEPS} items`, v, {
        max_length: MAX_STEPS,
      });
    }
    for (const [index, step] of steps.entries()) {
      const kinds = isPlainObject(step) ? Object.keys(step) : [];
      if (kinds.length !== 1) {
        const has = kinds.length === 0 ? 'none' : kinds.join(', ');
        const issue = fail(
          'value_error',
          `A step has exactly one of ${STEP_KINDS.join(', ')}; this one has ${has}`,
          step,
        );
        return { issues: prefix([index], issue.issues) };
      }
    }
    const ruled = stepRules(steps);
    return ruled.issues.length > 0 ? ruled : checked;
  },
);

/**
 * A stored pipeline's parse options: those of a parse request, but no `document_password`,
 * which a stored definition would keep for good; a run sends it in its `settings`.
 */
const storedParseOptions = checker(
  {
    allOf: [
      model(ParseOptionsDto).schema,
      { properties: { settings: { properties: { document_password: { type: 'null' } } } } },
    ],
  },
  (v) => {
    const checked = model(ParseOptionsDto)(v);
    if (checked.issues.length > 0) return checked;
    const settings = (checked.value as ParseOptionsDto).settings;
    if (settings?.document_password == null) return checked;
    return fail(
      'value_error',
      "A stored pipeline keeps no password: send document_password with each run's settings",
      '[hidden]',
      undefined,
      ['settings', 'document_password'],
    );
  },
);

export class CreatePipelineDto {
  @Required()
  @Check(notBlank(text({ maxLength: REQUEST_LIMITS.nameChars }), 'a pipeline name'))
  name!: string;

  @Check(nullable(text({ maxLength: REQUEST_LIMITS.descriptionChars })))
  description: string | null = null;

  /** Options of the parse every run starts with (those of a parse request's body). */
  @Check(storedParseOptions, { optional: true })
  parse?: ParseOptionsDto;

  @Required()
  @Check(pipelineSteps)
  steps!: PipelineStepDto[];
}
