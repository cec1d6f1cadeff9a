/**
 * The requests the conformance fuzzer drew from the API description that the API then refused
 * ("schema-valid request rejected"), read from the fuzzer's output, and whether each refusal
 * is one a schema cannot express. Any other refusal means the description accepts what the
 * service refuses: a client or generator trusting it sends requests that fail.
 */

/** A refusal the description cannot state, and why. */
interface ExplainedRejection {
  /** Matches `<status> <code or type>: <message>` of one refusal. */
  reason: RegExp;
  why: string;
}

export const EXPLAINED_REJECTIONS: readonly ExplainedRejection[] = [
  {
    reason:
      /^4\d\d (INPUT_URL_BLOCKED|url_blocked|INVALID_WEBHOOK_URL): .*(FETCH_ALLOW_HOSTS|private|resolve)/,
    why: 'a URL is refused by where its host resolves, which no schema knows',
  },
  { reason: /^400 INVALID_CURSOR: /, why: 'a cursor the service never issued' },
  {
    reason: /^4\d\d (url_parsing: |INVALID_WEBHOOK_URL: webhookUrl must be an absolute)/,
    why: "format uri is RFC 3986's; URLs are parsed as browsers parse them (WHATWG), which refuses some (http: without a host)",
  },
  {
    reason: /^400 INVALID_TIME_ZONE: /,
    why: 'the IANA time zones are those of the running ICU',
  },
  {
    reason: /^400 METADATA_KEY_REQUIRED: /,
    why: 'metadataValue and groupBy=metadata need metadataKey: a rule across parameters',
  },
  {
    reason: /^400 METADATA_KEY_NOT_ENABLED: /,
    why: 'a metadata key counts once its organization enabled it: state, not shape',
  },
  {
    reason:
      /^400 (METADATA_KEY_REJECTED|METADATA_KEY_LIMIT): metadata key ".*" (looks like|cannot be enabled)/,
    why: "whether a key may be enabled follows its observed values, a deleted tracking and the places its organization holds: state, not shape (the listing's canEnable says it)",
  },
  {
    reason: /^422 model_version_unknown: /,
    why: 'the model versions are the registry of the running build',
  },
  {
    reason: /^422 pin_precondition_missing: /,
    why: 'a version pin needs another field set: a rule across fields',
  },
  {
    reason: /^422 value_error: .* is not a category of this step's classification_schema/,
    why: "extract_by_category's keys name the step's own categories: a rule across fields",
  },
  {
    reason: /^422 value_error: Value error, start must not be greater than end/,
    why: "a page range's start against its end: a rule across fields",
  },
  {
    reason: /^422 value_error: Value error, at most \d+ pages can be selected/,
    why: 'page_range counts the distinct pages its ranges and numbers select: a sum over items',
  },
  {
    reason: /^422 value_error: Duplicate (category label|section name) /,
    why: 'labels distinct across the items of a list: uniqueness by one property of an object, which uniqueItems cannot state',
  },
  {
    reason: /^422 schema_ref: ".*" (does not point at a schema in this schema|contains itself)/,
    why: 'what a JSON Pointer in an extract schema reaches, and whether that holds the pointer again, is a fact of the whole schema, which no schema of it states',
  },
  {
    reason: /^400 INVALID_DATE_RANGE: /,
    why: 'endDate on or after startDate: a rule across fields',
  },
  {
    reason: /^400 INVALID_ALERT_SCOPE: /,
    why: 'metadataKey and metadataValue come together: a rule across fields',
  },
  {
    reason:
      /^400 INVALID_THRESHOLD: threshold must be (a whole number of requests|a decimal with at most)/,
    why: 'a whole number for measure requests (a rule across fields); a number with more than 6 decimals (JSON Schema has no exact decimal multipleOf)',
  },
  {
    reason: /^400 INVALID_EMAIL: /,
    why: "an admin command's email address is checked by the accounts service's own rule",
  },
  {
    reason: /^400 INVALID_ARGUMENTS: file: cannot read /,
    why: 'an admin command reads a file of the server: whether a path is a readable file is a fact of that machine',
  },
];

/** One refusal of a drawn request: where, and its `<status> <code or type>: <message>`. */
export interface Rejection {
  operation: string;
  reason: string;
}

/** The refusals listed in the FAILURES section of the fuzzer's output, one per reason. */
export function rejections(output: string): Rejection[] {
  const start = output.indexOf('= FAILURES =');
  if (start < 0) return [];
  const end = output.slice(start).search(/\n=+ [A-Z]+ =+/);
  const section = output.slice(start, end < 0 ? undefined : start + end);
  const found: Rejection[] = [];
  for (const block of section.split(/\n(?=_{3,} .+ _{3,}\n)/)) {
    const operation = /^_{3,} (.+?) _{3,}/.exec(block)?.[1] ?? 'unknown';
    for (const testCase of block.split(/\n(?=\d+\. Test Case ID: )/)) {
      if (!testCase.includes('- ST202 ')) continue;
      const answer = /\n\[(\d{3})\][^\n]*\n\s*\n\s*`(.*)`\s*\n/.exec(testCase);
      if (!answer) {
        found.push({ operation, reason: 'no response shown' });
        continue;
      }
      for (const reason of reasonsOf(answer[1], answer[2])) found.push({ operation, reason });
    }
  }
  return found;
}

/** `<status> <code>: <message>` of an error envelope, one per item of a 422 `detail`. */
function reasonsOf(status: string, body: string): string[] {
  try {
    const parsed = JSON.parse(body) as {
      error?: { code?: string; message?: string };
      detail?: { type?: string; msg?: string }[];
    };
    if (parsed.error) return [`${status} ${parsed.error.code}: ${parsed.error.message}`];
    if (Array.isArray(parsed.detail)) {
      return parsed.detail.map((item) => `${status} ${item.type}: ${item.msg}`);
    }
  } catch {
    // A body the output shortened: its codes are still read below.
  }
  // Each 422 item begins with its `loc`; an envelope is one item. A cut item keeps what it has.
  const items = body.split(/(?=\{"loc":)/).slice(body.includes('"detail"') ? 1 : 0);
  const reasons = items.flatMap((item) => {
    const code = /"(?:code|type)":"(\w+)"/.exec(item)?.[1];
    const message = /"(?:message|msg)":"((?:[^"\\]|\\.)*)/.exec(item)?.[1] ?? '';
    return code ? [`${status} ${code}: ${message}`] : [];
  });
  return reasons.length > 0 ? reasons : [`${status} ${body}`];
}

/** The refusals no entry of EXPLAINED_REJECTIONS accounts for. */
export function unexplainedRejections(output: string): Rejection[] {
  return rejections(output).filter(
    ({ reason }) => !EXPLAINED_REJECTIONS.some((explained) => explained.reason.test(reason)),
  );
}
