import { IntersectionType, PickType } from '@nestjs/mapped-types';
import { Allow } from 'class-validator';
import { RequestValidationError } from '../../../common/validation-error.js';
import { instructionPieceCount } from '../../../documents/edit/instructions.js';
import {
  AsyncConfigDto,
  DirectWebhookConfigDto,
  HostedWebhookConfigDto,
  httpUrlChecker,
  inputUrl,
  UploadResponseDto,
  type WebhookConfig,
} from '../../requests/shared-fields.dto.js';
import {
  AcrossFields,
  Check,
  checker,
  fail,
  isPlainObject,
  ok,
  registerModel,
  Required,
} from '../../requests/request-validation.js';
import { bool, int, list, model, nullable, text } from '../../requests/field-checkers.js';
import {
  number,
  OperationBaseDto,
  oneOf,
  versionPin,
} from '../../requests/operation-requests.dto.js';
import { REQUEST_LIMITS } from '../../requests/request-limits.js';

/**
 * The edit request of the reductoai SDK (EditRunParams / EditRunJobParams) plus the pin
 * `alpha.edit_model`, and the shape it is stored in with its job (EditJobRequestDto: the
 * fields every operation job shares, so queueing, lanes, webhooks and inputs work as for
 * parse). See docs/decisions/0240-edit-request-and-result-document.md.
 */

const shortName = text({ maxLength: REQUEST_LIMITS.nameChars });

/** A share of the page: boxes are fractions of its width and height, as parse's are. */
const fractionMessage = 'Input should be a fraction of the page between 0 and 1';
const fraction = checker({ type: 'number', minimum: 0, maximum: 1 }, (v) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) return number(v);
  if (v < 0) return fail('greater_than_equal', fractionMessage, v, { ge: 0 });
  return v <= 1 ? ok(v) : fail('less_than_equal', fractionMessage, v, { le: 1 });
});

const fontSizeMessage = 'Input should be a font size above 0 and at most 200 points';
const fontSize = checker({ type: 'number', exclusiveMinimum: 0, maximum: 200 }, (v) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) return number(v);
  if (v <= 0) return fail('greater_than', fontSizeMessage, v, { gt: 0 });
  return v <= 200 ? ok(v) : fail('less_than_equal', fontSizeMessage, v, { le: 200 });
});

const maxChars = REQUEST_LIMITS.editInstructionChars;
const maxPieces = REQUEST_LIMITS.editInstructionPieces;

/**
 * `edit_instructions`: at most `maxChars` characters and `maxPieces` pieces between
 * separators, both counted before any matching (each piece is matched against every field).
 */
const editInstructions = checker(
  {
    type: 'string',
    maxLength: maxChars,
    description: `Plain-language instructions ("name: Ada Lovelace, start date 1 March 2027, tick 'married'"): at most ${maxChars} characters and ${maxPieces} items (lines, semicolon- or comma-separated pieces).`,
  },
  (v) => {
    const checked = text({ maxLength: maxChars })(v);
    if (checked.issues.length > 0) return checked;
    const pieces = instructionPieceCount(v as string);
    return pieces <= maxPieces
      ? ok(v)
      : fail(
          'too_many_instructions',
          `edit_instructions should hold at most ${maxPieces} items (lines, semicolon- or comma-separated pieces), not ${pieces}`,
          v,
          { max_items: maxPieces, actual_items: pieces },
        );
  },
);

/** `document_url`: one document (a URL or an upload reference). */
const editDocument = checker(
  {
    anyOf: [inputUrl.schema, { $ref: `#/components/schemas/${registerModel(UploadResponseDto)}` }],
  },
  (v) => {
    // A jobid:// input stands for the lines a parse read; edit writes into the file itself.
    if (typeof v === 'string' && v.startsWith('jobid://')) {
      return fail(
        'url_scheme',
        'edit writes into the document itself: give its URL or upload reference, not a jobid:// parse job',
        v,
      );
    }
    if (typeof v === 'string') return inputUrl(v);
    if (isPlainObject(v)) return model(UploadResponseDto)(v);
    return fail('string_type', 'Input should be a valid URL string or an UploadResponse object', v);
  },
);

class EditBoundingBoxDto {
  @Required()
  @Check(int({ ge: 1 }))
  page!: number;

  @Required()
  @Check(fraction)
  left!: number;

  @Required()
  @Check(fraction)
  top!: number;

  @Required()
  @Check(fraction)
  width!: number;

  @Required()
  @Check(fraction)
  height!: number;

  @Check(int({ ge: 1 }), { optional: true })
  original_page?: number;
}

/**
 * A widget's box lies on its page: a box reaching past the right or bottom edge would place
 * the widget where no reader sees it, so it is a 422 naming the edge, not a silent clip.
 */
const boxOnPage = checker(
  {
    $ref: `#/components/schemas/${registerModel(EditBoundingBoxDto)}`,
  },
  (v) => {
    const checked = model(EditBoundingBoxDto)(v);
    if (checked.issues.length > 0) return checked;
    const box = checked.value as EditBoundingBoxDto;
    const edges = [
      { start: 'left', size: 'width', edge: 'right' },
      { start: 'top', size: 'height', edge: 'bottom' },
    ] as const;
    const issues = edges.flatMap(({ start, size, edge }) =>
      box[start] + box[size] <= 1 + 1e-9
        ? []
        : fail(
            'value_error',
            `Value error, ${start} + ${size} must be at most 1: the box reaches past the page's ${edge} edge`,
            v,
            { error: `${start} + ${size} must be at most 1` },
            [size],
          ).issues,
    );
    return issues.length > 0 ? { issues } : checked;
  },
);

class EditWidgetDto {
  @Required()
  @Check(boxOnPage)
  bbox!: EditBoundingBoxDto;

  @Required()
  @Check(text({ maxLength: REQUEST_LIMITS.widgetDescriptionChars }))
  description!: string;

  @Required()
  @Check(oneOf(['text', 'checkbox', 'radio', 'dropdown', 'barcode']))
  type!: 'text' | 'checkbox' | 'radio' | 'dropdown' | 'barcode';

  @Check(bool, { optional: true })
  fill?: boolean;

  @Check(nullable(fontSize), { optional: true })
  font_size?: number | null;

  @Check(nullable(text({ maxLength: REQUEST_LIMITS.fieldValueChars })), { optional: true })
  value?: string | null;
}

class EditOptionsDto {
  @Check(bool, { optional: true })
  flatten?: boolean;

  @Check(nullable(fontSize), { optional: true })
  font_size?: number | null;

  @Check(bool, { optional: true })
  enable_overflow_pages?: boolean;

  /** Accepted and not acted on: fields are written in black (see the decision record). */
  @Check(shortName, { optional: true })
  color?: string;

  /** Accepted and not acted on: docproc runs no hosted language model. */
  @Check(nullable(oneOf(['openai', 'anthropic', 'google'])), { optional: true })
  llm_provider_preference?: string | null;
}

class EditAlphaDto {
  @Check(versionPin, { optional: true })
  edit_model?: string;
}

/*
 * The API description lists request models in the order they are registered: the options' and
 * the pin's models before the webhook's, so that order does not follow the fields of
 * EditConfigDto.
 */
registerModel(EditOptionsDto);
registerModel(EditAlphaDto);

/**
 * The SDK's WebhookConfigNew: `disabled`, `svix` (hosted) or `direct` with `url`. The rule
 * is stated on the model itself (`if` mode is `direct` `then` `url` is required): a fuzzer's
 * threads drawing the field through a wrapper around its reference failed to replay.
 */
@AcrossFields({
  schema: {
    if: { required: ['mode'], properties: { mode: { const: 'direct' } } },
    then: { required: ['url'] },
  },
  check: (webhook: EditWebhookDto) =>
    webhook.mode === 'direct' && webhook.url === undefined
      ? [
          {
            loc: ['url'],
            msg: 'Field required: a direct webhook needs url',
            type: 'missing',
            input: webhook,
          },
        ]
      : [],
})
class EditWebhookDto {
  @Check(oneOf(['disabled', 'svix', 'direct']), { optional: true })
  mode?: 'disabled' | 'svix' | 'direct';

  @Check(httpUrlChecker, { optional: true })
  url?: string;

  @Check(list(shortName, { maxItems: REQUEST_LIMITS.webhookChannels }), { optional: true })
  channels?: string[];

  /** Any JSON value; included in the webhook body, and in usage events when an object. */
  @Allow()
  metadata?: unknown;
}

const formSchema = nullable(
  list(model(EditWidgetDto), { maxItems: REQUEST_LIMITS.formSchemaWidgets }),
);

/** `POST /edit` and `POST /edit_async`. */
export class EditConfigDto {
  @Required()
  @Check(editDocument)
  document_url!: string | UploadResponseDto;

  @Required()
  @Check(editInstructions)
  edit_instructions!: string;

  @Check(formSchema, { optional: true })
  form_schema?: EditWidgetDto[] | null;

  @Check(model(EditOptionsDto), { optional: true })
  edit_options?: EditOptionsDto;

  /** Sync requests go to the priority lane unless false; async ones only when true. */
  @Check(bool, { optional: true })
  priority?: boolean;

  @Check(oneOf(['auto', 'default', 'batch']), { optional: true })
  queue_priority?: 'auto' | 'default' | 'batch';

  @Check(model(EditWebhookDto), { optional: true })
  webhook?: EditWebhookDto;

  /** Pin of the edit model version (spec "Versioning"), at the top level as deep split's. */
  @Check(model(EditAlphaDto), { optional: true })
  alpha?: EditAlphaDto;
}

/**
 * How an edit job's request is stored: the edit's own fields as the body gave them, with
 * `input`, `async` and the lanes every operation job has.
 */
export class EditJobRequestDto extends IntersectionType(
  PickType(EditConfigDto, ['edit_instructions', 'form_schema', 'edit_options', 'alpha'] as const),
  OperationBaseDto,
) {}

/** The webhook of an async edit in the shape every async job stores (`async.webhook`). */
function asyncWebhookOf(webhook: EditWebhookDto | undefined): WebhookConfig | null {
  if (!webhook || webhook.mode === 'disabled') return null;
  if (webhook.mode === 'direct' || (webhook.mode === undefined && webhook.url)) {
    return Object.assign(new DirectWebhookConfigDto(), { url: webhook.url! });
  }
  if (webhook.mode === 'svix')
    return Object.assign(new HostedWebhookConfigDto(), { channels: webhook.channels });
  return null;
}

/**
 * An edit request, validated at the edge as EditConfigDto, as the command every operation job
 * runs and stores (`input`, `async`, lanes): mapped field by field, not validated again; the
 * stored command is read back through EditJobRequestDto.
 */
export function editJobRequest(config: EditConfigDto, isAsync: boolean): EditJobRequestDto {
  const webhook = isAsync ? asyncWebhookOf(config.webhook) : null;
  const metadata = isAsync ? config.webhook?.metadata : undefined;
  const request = Object.assign(new EditJobRequestDto(), {
    input: config.document_url,
    async: Object.assign(new AsyncConfigDto(), {
      priority: config.priority ?? false,
      ...(metadata !== undefined && { metadata }),
      ...(webhook && { webhook }),
    }),
    priority: config.priority ?? true,
    queue_priority: config.queue_priority ?? 'auto',
    edit_instructions: config.edit_instructions,
  });
  if (config.form_schema !== undefined) request.form_schema = config.form_schema;
  if (config.edit_options !== undefined) request.edit_options = config.edit_options;
  if (config.alpha !== undefined) request.alpha = config.alpha;
  return request;
}

/**
 * An error about the stored command's `async.webhook`, named as the edit body has it: the
 * webhook is a top-level field there (`webhook.url`), so a client can find what to correct.
 */
export function inEditBody(error: unknown): unknown {
  if (!(error instanceof RequestValidationError)) return error;
  const stored = ['body', 'async', 'webhook'];
  return new RequestValidationError(
    error.detail.map((item) =>
      stored.every((part, i) => item.loc[i] === part)
        ? { ...item, loc: ['body', 'webhook', ...item.loc.slice(stored.length)] }
        : item,
    ),
  );
}
