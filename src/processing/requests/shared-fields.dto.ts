import { IsBoolean, IsIn } from 'class-validator';
import {
  Check,
  checker,
  Checker,
  CheckResult,
  fail,
  Issue,
  isPlainObject,
  type JsonSchema,
  ok,
  prefix,
  registerModel,
  Required,
} from './request-validation.js';
import {
  anyJsonWithVisibleKeys,
  distinctBy,
  int,
  list,
  model,
  nonEmptyStr,
  notBlank,
  nullable,
  str,
} from './field-checkers.js';
import { countRequestedPages, MAX_SELECTED_PAGES } from '../../documents/readers/page-range.js';

import { urlSchemePattern } from '../../common/url-scheme-pattern.js';

const INPUT_SCHEMES = ['http', 'https', 'docproc', 'jobid'];

/**
 * A non-empty string that parses as a URL with one of `schemes` (e.g. `['http', 'https']`);
 * the 422 names the allowed schemes.
 */
function urlChecker(schemes: readonly string[], description?: string): Checker {
  const quoted = schemes.map((scheme) => `'${scheme}'`);
  const spoken = `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
  const schema = {
    type: 'string',
    format: 'uri',
    pattern: urlSchemePattern(schemes),
    ...(description && { description }),
  };
  return checker(schema, (v) => {
    const base = nonEmptyStr(v);
    if (base.issues.length) return base;
    let url: URL;
    try {
      url = new URL(v as string);
    } catch {
      return fail('url_parsing', 'Input should be a valid URL', v, { error: 'invalid URL' });
    }
    if (!schemes.includes(url.protocol.slice(0, -1))) {
      return fail('url_scheme', `URL scheme should be ${spoken}`, v, {
        expected_schemes: quoted.join(', '),
      });
    }
    return ok(v);
  });
}

export const httpUrlChecker: Checker = urlChecker(['http', 'https']);

export const inputUrl: Checker = urlChecker(
  INPUT_SCHEMES,
  'A public http(s) URL, a `docproc://<file_id>` from `POST /upload`, or `jobid://<job_id>` of a completed parse job (its parsed document is reused). Documents read: PDF, DOCX, PPTX (a page per slide), XLSX (a page per sheet), CSV/TSV (named `.csv`/`.tsv` or served as `text/csv`), PNG, JPEG, TIFF, WebP, GIF, AVIF, plain text, Markdown, HTML',
);

export class UploadResponseDto {
  @Required()
  @Check(inputUrl)
  file_id!: string;

  @Check(nullable(str))
  presigned_url: string | null = null;
}

/** A category's label: the result names the category by it. */
const categoryLabel = notBlank(nonEmptyStr, 'a category label');

export class ClassificationCategoryDto {
  @Required()
  @Check(categoryLabel)
  category!: string;

  @Required()
  @Check(list(notBlank(str, 'a criterion')))
  criteria!: string[];
}

class PageRangeDto {
  @Check(nullable(int({ ge: 1 })))
  start: number | null = null;

  @Check(nullable(int({ ge: 1 })))
  end: number | null = null;
}

/** `svix` is the reductoai SDK's name of the hosted mode (`SvixWebhookConfig`): the same variant. */
const HOSTED_WEBHOOK_MODES = ['hosted', 'svix'] as const;

export class HostedWebhookConfigDto {
  @IsIn(HOSTED_WEBHOOK_MODES)
  mode: (typeof HOSTED_WEBHOOK_MODES)[number] = 'hosted';

  @Check(list(str), { optional: true })
  channels?: string[];
}

export class DirectWebhookConfigDto {
  @IsIn(['direct'])
  mode = 'direct' as const;

  @Required()
  @Check(httpUrlChecker)
  url!: string;
}

export type WebhookConfig = HostedWebhookConfigDto | DirectWebhookConfigDto;

/**
 * Discriminated by `mode`. Without `mode`, a body with `url` can only be the direct variant
 * (the hosted one forbids extra fields), anything else is hosted, as pydantic would pick.
 */
const webhookConfig: Checker = checker(
  {
    anyOf: [
      { $ref: `#/components/schemas/${registerModel(HostedWebhookConfigDto)}` },
      { $ref: `#/components/schemas/${registerModel(DirectWebhookConfigDto)}` },
      { type: 'null' },
    ],
  },
  (v) => {
    if (v === null) return ok(null);
    if (!isPlainObject(v)) {
      return fail(
        'model_attributes_type',
        'Input should be a valid dictionary or object to extract fields from',
        v,
      );
    }
    const mode = v.mode;
    if (mode === 'direct' || (mode === undefined && 'url' in v))
      return model(DirectWebhookConfigDto)(v);
    if (mode === undefined || HOSTED_WEBHOOK_MODES.includes(mode as 'hosted'))
      return model(HostedWebhookConfigDto)(v);
    // Any JSON value can arrive as the tag; `String` throws on an object whose `toString` is
    // not a function (`{"toString": null}`), so a non-string tag is shown as its JSON.
    const tag = typeof mode === 'string' ? mode : JSON.stringify(mode);
    return fail(
      'union_tag_invalid',
      `Input tag '${tag}' found using 'mode' does not match any of the expected tags: 'hosted', 'svix', 'direct'`,
      v,
      { discriminator: "'mode'", tag, expected_tags: "'hosted', 'svix', 'direct'" },
    );
  },
);

export class AsyncConfigDto {
  /** Any JSON value; included in the webhook body, and in usage events when an object. */
  @Check(anyJsonWithVisibleKeys('a metadata key'), { optional: true })
  metadata?: unknown;

  @IsBoolean()
  priority = false;

  @Check(webhookConfig, { optional: true })
  webhook?: WebhookConfig | null;
}

/** string | string[] | UploadResponse, chosen by the JSON shape. */
export const classifyInput: Checker = checker(
  {
    anyOf: [
      inputUrl.schema,
      { type: 'array', items: inputUrl.schema, minItems: 1 },
      { $ref: `#/components/schemas/${registerModel(UploadResponseDto)}` },
    ],
  },
  (v) => {
    if (typeof v === 'string') return inputUrl(v);
    if (Array.isArray(v)) return list(inputUrl, { minItems: 1 })(v);
    if (isPlainObject(v)) return model(UploadResponseDto)(v);
    return fail(
      'string_type',
      'Input should be a valid string, a list of strings or an UploadResponse object',
      v,
    );
  },
);

export type PageSelection = PageRangeDto | PageRangeDto[] | number[] | null;

/** The rule a JSON Schema cannot state on a PageRange: said in the description instead. */
const ORDERED_RANGES = "a range's start must not be greater than its end";

/** PageRange | PageRange[] | int[] | null, in JSON Schema. */
function pageSelectionSchema(maxPages?: number, limits?: string): JsonSchema {
  const pageRef = { $ref: `#/components/schemas/${registerModel(PageRangeDto)}` };
  const cap = maxPages ? `; at most ${maxPages} pages selected` : limits ? `; ${limits}` : '';
  return {
    anyOf: [
      pageRef,
      { type: 'array', items: pageRef },
      { type: 'array', items: int({ ge: 1 }).schema },
      { type: 'null' },
    ],
    description: `1-indexed pages; ${ORDERED_RANGES}${cap}`,
  };
}

/**
 * The one place of the page-selection rules, for every operation and pipeline step:
 * PageRange | PageRange[] | int[] | null, each range in order (start <= end), and, given
 * `maxPages`, at most that many selected pages (`limits` says in words a cap the document
 * loader enforces instead). Open-ended ranges are counted when the
 * document's page count is known (by the document loader), closed ones here. A request that
 * breaks a rule gets a 422 at the request naming the field, never a failed job later.
 */
export function pageSelection(maxPages?: number, limits?: string): Checker {
  return checker(pageSelectionSchema(maxPages, limits), (v) => {
    if (v === null) return ok(null);
    let result: CheckResult;
    if (Array.isArray(v) && v.some((item) => typeof item === 'string')) {
      // The SDK's type takes sheet names here, which select the sheets of a spreadsheet.
      return fail(
        'value_error',
        'Value error, sheet names select sheets of a spreadsheet, and spreadsheets are not ' +
          'read here: select pages by number instead, a list of page numbers such as [1, 2] ' +
          'or a PageRange such as {"start": 1, "end": 3}',
        v,
        { error: 'sheet names select sheets of a spreadsheet' },
      );
    }
    if (Array.isArray(v)) {
      result =
        v.length > 0 && typeof v[0] === 'number'
          ? list(int({ ge: 1 }))(v)
          : list(model(PageRangeDto))(v);
    } else if (isPlainObject(v)) {
      result = model(PageRangeDto)(v);
    } else {
      return fail(
        'model_attributes_type',
        'Input should be a PageRange object, a list of PageRange objects, a list of integers or null',
        v,
      );
    }
    if (result.issues.length) return result;
    const value = result.value as PageSelection;
    const issues = rangesOutOfOrder(value);
    if (issues.length) return { issues };
    if (maxPages === undefined) return ok(value);
    const selected = countRequestedPages(value);
    if (selected > maxPages) {
      return fail(
        'value_error',
        `Value error, at most ${maxPages} pages can be selected, got ${selected}`,
        v,
        { error: `at most ${maxPages} pages can be selected`, max_pages: maxPages },
      );
    }
    return ok(value);
  });
}

/** One issue per range whose start is greater than its end, at that range's location. */
function rangesOutOfOrder(value: PageSelection): Issue[] {
  const ranges = Array.isArray(value) ? value : value ? [value] : [];
  return ranges.flatMap((range, index) => {
    if (typeof range === 'number') return [];
    if (range.start === null || range.end === null || range.start <= range.end) return [];
    return prefix(Array.isArray(value) ? [index] : [], [
      {
        loc: [],
        type: 'value_error',
        msg: 'Value error, start must not be greater than end',
        input: range,
        ctx: { error: 'start must not be greater than end' },
      },
    ]);
  });
}

/** Classify's page selection: classification reads at most MAX_SELECTED_PAGES pages. */
export const pageRange: Checker = pageSelection(MAX_SELECTED_PAGES);

/**
 * A classification schema: categories whose labels are distinct, since the result names the
 * chosen category by its label alone. `options` bound the number of categories.
 */
export function classificationSchema(options: { minItems?: number } = {}): Checker {
  return distinctBy(list(model(ClassificationCategoryDto), options), 'category', 'category label');
}
