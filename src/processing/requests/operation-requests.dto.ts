import { MAX_SCHEMA_NODES } from '../../documents/extract/schema-references.js';
import {
  AsyncConfigDto,
  classifyInput,
  pageSelection,
  UploadResponseDto,
} from './shared-fields.dto.js';
import {
  Check,
  checker,
  type Checker,
  fail,
  isPlainObject,
  ok,
  quoteList,
  registerModel,
  Required,
} from './request-validation.js';
import { bool, distinctBy, int, list, model, notBlank, nullable, text } from './field-checkers.js';
import { REQUEST_LIMITS } from './request-limits.js';

/**
 * Request bodies of parse, extract and split, after the reductoai SDK's types (every field
 * the SDK can send is accepted; fields docproc does not act on are validated loosely and
 * ignored, see docs/decisions/0039-operation-endpoints-prices-and-ignored-fields.md) plus the
 * spec's pinning fields.
 */

export function oneOf(values: readonly string[]): Checker {
  return checker({ type: 'string', enum: [...values] }, (v) =>
    typeof v === 'string' && values.includes(v)
      ? ok(v)
      : fail('enum', `Input should be ${quoteList([...values])}`, v, {
          expected: quoteList([...values]),
        }),
  );
}

/**
 * An object docproc accepts and does not act on (see
 * docs/decisions/0039-operation-endpoints-prices-and-ignored-fields.md).
 */
const anyObject = checker({ type: 'object', additionalProperties: true }, (v) =>
  isPlainObject(v) ? ok(v) : fail('dict_type', 'Input should be a valid dictionary', v),
);

export const number = checker({ type: 'number' }, (v) =>
  typeof v === 'number' && Number.isFinite(v)
    ? ok(v)
    : fail('float_type', 'Input should be a valid number', v),
);

const shortName = text({ maxLength: REQUEST_LIMITS.nameChars });

/**
 * A model version pin (`alpha.*_model`): a name with something besides blanks in it, so the
 * description does not offer a blank pin the version registry then refuses.
 */
export const versionPin = notBlank(shortName, 'a version name');
export const longText = text({ maxLength: REQUEST_LIMITS.descriptionChars });

/**
 * Parse, extract and split (and their pipeline steps) read every page unless `page_range`
 * selects some; the caps depend on the document's page count, so the loader checks them.
 */
const operationPageRange: Checker = pageSelection(
  undefined,
  'PDF pages only, other types (slides and sheets too) are read whole. Default: every page. At most MAX_PARSE_PAGES ' +
    '(default 500) PDF pages are read in one request (422 PAGE_RANGE_INVALID beyond), and ' +
    "a request's documents have at most MAX_DOCUMENT_PAGES (default 2000) pages together " +
    '(413 DOCUMENT_LIMIT_EXCEEDED beyond); both are settings of the deployment',
);

const CHUNK_MODES = ['variable', 'section', 'page', 'disabled', 'block', 'page_sections'];
const BLOCK_TYPES = [
  'Header',
  'Footer',
  'Title',
  'Section Header',
  'Page Number',
  'List Item',
  'Figure',
  'Table',
  'Key Value',
  'Text',
  'Comment',
  'Signature',
];

/** A document password: bounded, and never echoed back in a 422. */
export const documentPassword = checker(
  { type: 'string', maxLength: REQUEST_LIMITS.documentPasswordChars, writeOnly: true },
  (v) => {
    const checked = text({ maxLength: REQUEST_LIMITS.documentPasswordChars })(v);
    return checked.issues.length === 0
      ? checked
      : { issues: checked.issues.map((issue) => ({ ...issue, input: '[hidden]' })) };
  },
);

class ParseAlphaDto {
  @Check(versionPin, { optional: true })
  layout_model?: string;
}

class ParseSettingsDto {
  @Check(operationPageRange, { optional: true })
  page_range?: unknown;

  /** Spec "Versioning": pins the layout model version. */
  @Check(model(ParseAlphaDto), { optional: true })
  alpha?: ParseAlphaDto;

  @Check(bool, { optional: true })
  return_ocr_data?: boolean;

  @Check(bool, { optional: true })
  force_url_result?: boolean;

  @Check(bool, { optional: true })
  persist_results?: boolean;

  @Check(bool, { optional: true })
  embed_pdf_metadata?: boolean;

  @Check(nullable(documentPassword), { optional: true })
  document_password?: string | null;

  @Check(nullable(shortName), { optional: true })
  force_file_extension?: string | null;

  @Check(oneOf(['ocr', 'hybrid']), { optional: true })
  extraction_mode?: string;

  @Check(oneOf(['standard', 'legacy']), { optional: true })
  ocr_system?: string;

  @Check(list(oneOf(['figure', 'table', 'page'])), { optional: true })
  return_images?: string[];

  @Check(nullable(number), { optional: true })
  timeout?: number | null;
}

class ChunkingDto {
  @Check(oneOf(CHUNK_MODES), { optional: true })
  chunk_mode?: string;

  @Check(nullable(int({ ge: 1 })), { optional: true })
  chunk_size?: number | null;

  @Check(int({ ge: 0 }), { optional: true })
  chunk_overlap?: number;
}

class RetrievalDto {
  @Check(model(ChunkingDto), { optional: true })
  chunking?: ChunkingDto;

  @Check(bool, { optional: true })
  embedding_optimized?: boolean;

  @Check(list(oneOf(BLOCK_TYPES)), { optional: true })
  filter_blocks?: string[];
}

class FormattingDto {
  @Check(bool, { optional: true })
  add_page_markers?: boolean;

  @Check(list(shortName, { maxItems: REQUEST_LIMITS.webhookChannels }), { optional: true })
  include?: string[];

  @Check(bool, { optional: true })
  merge_tables?: boolean;

  @Check(oneOf(['html', 'json', 'md', 'jsonbbox', 'dynamic', 'csv']), { optional: true })
  table_output_format?: string;
}

/** Fields every operation request shares with classify (input, queueing, async). */
export class OperationBaseDto {
  @Required()
  @Check(classifyInput)
  input!: string | string[] | UploadResponseDto;

  @Check(model(AsyncConfigDto))
  async: AsyncConfigDto = new AsyncConfigDto();

  /** Sync requests go to the priority lane unless this is false (spec `priority`). */
  @Check(bool)
  priority = true;

  @Check(oneOf(['auto', 'default', 'batch']))
  queue_priority: 'auto' | 'default' | 'batch' = 'auto';
}

/** `parsing` of extract and split: parse options applied before the operation. */
export class ParseOptionsDto {
  @Check(anyObject, { optional: true })
  enhance?: Record<string, unknown>;

  @Check(model(FormattingDto), { optional: true })
  formatting?: FormattingDto;

  @Check(model(RetrievalDto), { optional: true })
  retrieval?: RetrievalDto;

  @Check(model(ParseSettingsDto), { optional: true })
  settings?: ParseSettingsDto;

  @Check(anyObject, { optional: true })
  spreadsheet?: Record<string, unknown>;
}

/**
 * `instructions.schema`, described here and checked by extract's own rules when the request
 * arrives (422 at its location, extract-schema.ts).
 */
/** Keywords a schema's root may be reached through instead of its own `properties`. */
const RESOLVED_ROOTS = ['$ref', 'allOf', 'anyOf', 'oneOf'];

const extractSchema = checker(
  {
    type: 'object',
    // What validateSchema refuses first, so a client reading the description does not send it:
    // a root with neither `properties` nor a keyword it is resolved through, fields that are
    // not schemas (objects) themselves, and a root reference that is no JSON Pointer into the
    // schema (`#` alone is the root itself: a schema of no finite depth).
    anyOf: ['properties', ...RESOLVED_ROOTS].map((key) => ({ required: [key] })),
    properties: {
      properties: { type: 'object', additionalProperties: { type: 'object' } },
      $ref: { type: 'string', pattern: '^#/' },
    },
    description:
      'A JSON Schema whose root is an object with `properties`. References within it ' +
      '(`$ref` to `#/$defs/...`) are resolved; one that points at nothing or at a schema ' +
      'containing it is refused. An `anyOf` of one schema and `null` reads as ' +
      `that schema; at most ${MAX_SCHEMA_NODES} objects, arrays and fields once resolved.`,
  },
  ok,
);

/**
 * What an extract request without instructions is told to send: the SDK's types leave
 * `instructions` optional, and there is nothing to extract without a schema.
 */
export const INSTRUCTIONS_TO_SEND =
  'send `instructions` with `schema`, a JSON Schema of the fields to extract whose root is ' +
  'an object with `properties`, e.g. {"schema": {"type": "object", "properties": ' +
  '{"name": {"type": "string"}}}}';

export class InstructionsDto {
  /** Required wherever instructions are sent (validateExtractRequest, validateSchema). */
  @Required(
    'send `schema`, a JSON Schema of the fields to extract whose root is an object with ' +
      '`properties`, e.g. {"type": "object", "properties": {"name": {"type": "string"}}}',
  )
  @Check(extractSchema)
  schema!: unknown;

  @Check(longText, { optional: true })
  system_prompt?: string;
}

class CitationsDto {
  @Check(bool, { optional: true })
  enabled?: boolean;

  @Check(bool, { optional: true })
  numerical_confidence?: boolean;
}

class ExtractAlphaDto {
  @Check(versionPin, { optional: true })
  extract_model?: string;

  @Check(versionPin, { optional: true })
  deep_extract_model?: string;
}

export class ExtractSettingsDto {
  @Check(bool, { optional: true })
  array_extract?: boolean;

  @Check(model(CitationsDto), { optional: true })
  citations?: CitationsDto;

  @Check(bool, { optional: true })
  deep_extract?: boolean;

  @Check(bool, { optional: true })
  include_images?: boolean;

  @Check(bool, { optional: true })
  optimize_for_latency?: boolean;

  /** Spec "Versioning": extract and deep extract pins. */
  @Check(model(ExtractAlphaDto), { optional: true })
  alpha?: ExtractAlphaDto;
}

/*
 * The API description lists request models in the order they are registered: the option
 * models of extract and split are registered here, where they are defined, so that order does
 * not depend on which operation's request DTO (in processing/operations/) loads first.
 */
registerModel(InstructionsDto);
registerModel(ParseOptionsDto);
registerModel(ExtractSettingsDto);

export class SplitCategoryDto {
  /** The key of the section in the result, so it has to say something (as a category label). */
  @Required()
  @Check(notBlank(shortName, 'a section name'))
  name!: string;

  @Required()
  @Check(longText)
  description!: string;

  @Check(nullable(shortName), { optional: true })
  partition_key?: string | null;
}

/**
 * A split's categories: at least one, at most REQUEST_LIMITS.stepCategories, each name once
 * (the result maps pages by name), refused with the request rather than when the job runs.
 */
export const splitDescription = distinctBy(
  list(model(SplitCategoryDto), { minItems: 1, maxItems: REQUEST_LIMITS.stepCategories }),
  'name',
  'section name',
);

export class SplitSettingsDto {
  @Check(bool, { optional: true })
  allow_page_overlap?: boolean;

  @Check(oneOf(['truncate', 'preserve']), { optional: true })
  table_cutoff?: string;

  @Check(bool, { optional: true })
  deep_split?: boolean;

  /**
   * Accepted here only to answer a deep split pin placed under `settings` with a 422 that
   * says where it belongs (top-level `alpha.deep_split_model`).
   */
  @Check(anyObject, { optional: true })
  alpha?: Record<string, unknown>;
}

export class SplitAlphaDto {
  @Check(versionPin, { optional: true })
  deep_split_model?: string;
}

registerModel(SplitSettingsDto);
registerModel(SplitAlphaDto);
