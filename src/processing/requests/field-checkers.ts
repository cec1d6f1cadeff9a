import { MAX_VALIDATION_ERRORS } from '../../common/validation-error.js';
import { hasVisibleCharacter, visibleTextPattern } from '../../common/visible-text.js';
import {
  append,
  checker,
  type Checker,
  type CheckResult,
  type Class,
  fail,
  isPlainObject,
  type Issue,
  ok,
  prefix,
  registerModel,
  validateModel,
} from './request-validation.js';

/**
 * The checkers of request fields (`@Check(checker)`): strings, booleans, integers, text of
 * bounded length, nullable values, lists, dictionaries and nested request models, each with
 * the JSON Schema of what it accepts and pydantic's issue types for what it refuses.
 */
export const str = checker({ type: 'string' }, (v) =>
  typeof v === 'string' ? ok(v) : fail('string_type', 'Input should be a valid string', v),
);

export const nonEmptyStr = checker({ type: 'string', minLength: 1 }, (v) =>
  typeof v !== 'string'
    ? str(v)
    : v.length > 0
      ? ok(v)
      : fail('string_too_short', 'String should have at least 1 character', v, { min_length: 1 }),
);

export const bool = checker({ type: 'boolean' }, (v) =>
  typeof v === 'boolean' ? ok(v) : fail('bool_type', 'Input should be a valid boolean', v),
);

export function int(options: { ge?: number } = {}): Checker {
  // Past 2^53 a JSON number is no exact integer here, and is refused: the bounds say so.
  const schema = {
    type: 'integer',
    minimum: options.ge ?? Number.MIN_SAFE_INTEGER,
    maximum: Number.MAX_SAFE_INTEGER,
  };
  return checker(schema, (v) => {
    if (typeof v !== 'number' || !Number.isFinite(v) || typeof v === 'boolean') {
      return fail('int_type', 'Input should be a valid integer', v);
    }
    if (!Number.isInteger(v)) {
      return fail(
        'int_from_float',
        'Input should be a valid integer, got a number with a fractional part',
        v,
      );
    }
    if (!Number.isSafeInteger(v)) return fail('int_type', 'Input should be a valid integer', v);
    if (options.ge !== undefined && v < options.ge) {
      return fail(
        'greater_than_equal',
        `Input should be greater than or equal to ${options.ge}`,
        v,
        {
          ge: options.ge,
        },
      );
    }
    return ok(v);
  });
}

/** `T | null`: in JSON Schema, the type with `null` added. */
export function nullable(inner: Checker): Checker {
  const schema =
    typeof inner.schema.type === 'string' && !('enum' in inner.schema)
      ? { ...inner.schema, type: [inner.schema.type, 'null'] }
      : { anyOf: [inner.schema, { type: 'null' }] };
  return checker(schema, (v) => (v === null ? ok(null) : inner(v)));
}

/**
 * `base`, and at least one character a reader sees (`what` names the value in the refusal):
 * a name the answer or a registry refers to, so a blank one is refused rather than accepted
 * and then unusable. The refusal names no `ctx.pattern`: the pattern runs to kilobytes, the
 * description holds it, and the message says what is missing.
 */
export function notBlank(base: Checker, what: string): Checker {
  const schema = {
    ...base.schema,
    minLength: 1,
    // Read when the description is built, not when a request model is declared.
    get pattern() {
      return visibleTextPattern();
    },
  };
  return checker(schema, (v) => {
    const checked = base(v);
    if (checked.issues.length > 0) return checked;
    return hasVisibleCharacter(v as string)
      ? ok(v)
      : fail('string_pattern_mismatch', `Input should be ${what}, not blank`, v);
  });
}

/**
 * Any JSON value whose keys, when it is an object, each hold a character a reader sees:
 * `what` names the keys in the refusal. The keys of `async.metadata` are what usage is
 * grouped and filtered by, so a blank one would be a group no one can name. A refused key
 * is named in the issue's `loc` as pydantic does (`[..., key, "[key]"]`).
 */
export function anyJsonWithVisibleKeys(what: string): Checker {
  const schema = {
    description: `Any JSON value; when an object, each of its keys (${what}) must hold a visible character`,
    propertyNames: {
      // Read when the description is built, not when a request model is declared.
      get pattern() {
        return visibleTextPattern();
      },
    },
  };
  return checker(schema, (v) => {
    if (!isPlainObject(v)) return ok(v);
    const issues: Issue[] = Object.keys(v)
      .filter((key) => !hasVisibleCharacter(key))
      .slice(0, MAX_VALIDATION_ERRORS)
      .map((key) => ({
        loc: [key, '[key]'],
        msg: `Input should be ${what} holding a visible character, not blank`,
        type: 'string_pattern_mismatch',
        input: key,
      }));
    return issues.length ? { issues } : ok(v);
  });
}

/**
 * A string of at most `maxLength` characters (pydantic's `max_length`): the bound is in the
 * OpenAPI description, and checked before any engine reads the text.
 */
export function text(options: { maxLength: number; minLength?: number }): Checker {
  const { maxLength, minLength } = options;
  const base = minLength ? nonEmptyStr : str;
  return checker({ ...base.schema, maxLength }, (v) => {
    const checked = base(v);
    if (checked.issues.length > 0) return checked;
    const length = (v as string).length;
    return length <= maxLength
      ? ok(v)
      : fail('string_too_long', `String should have at most ${maxLength} characters`, v, {
          max_length: maxLength,
          actual_length: length,
        });
  });
}

/** The issue of a list longer than `maxItems` (pydantic's `too_long`). */
function tooManyItems(v: unknown[], maxItems: number, what = 'items'): CheckResult {
  return fail(
    'too_long',
    `List should have at most ${maxItems} ${what} after validation, not ${v.length}`,
    v,
    { field_type: 'List', max_length: maxItems, actual_length: v.length },
  );
}

export function list(
  item: Checker,
  options: { minItems?: number; maxItems?: number } = {},
): Checker {
  const schema = {
    type: 'array',
    items: item.schema,
    ...(options.minItems ? { minItems: options.minItems } : {}),
    ...(options.maxItems !== undefined ? { maxItems: options.maxItems } : {}),
  };
  return checker(schema, (v) => {
    if (!Array.isArray(v)) return fail('list_type', 'Input should be a valid list', v);
    if (options.minItems !== undefined && v.length < options.minItems) {
      return fail(
        'too_short',
        `List should have at least ${options.minItems} item after validation, not ${v.length}`,
        v,
        { field_type: 'List', min_length: options.minItems, actual_length: v.length },
      );
    }
    // Checked before the items: a list of a million items costs one comparison, not a walk.
    if (options.maxItems !== undefined && v.length > options.maxItems) {
      return tooManyItems(v, options.maxItems);
    }
    const issues: Issue[] = [];
    const out: unknown[] = [];
    for (const [index, element] of v.entries()) {
      // Past what a 422 lists, the rest is not checked (150,000 wrong items cost seconds).
      if (issues.length > MAX_VALIDATION_ERRORS) {
        issues.push({
          loc: [index],
          type: 'too_many_errors',
          msg: `Items ${index} to ${v.length - 1} were not checked: ${issues.length} errors came before them`,
          input: '[not checked]',
          ctx: { unchecked: v.length - index },
        });
        return { issues };
      }
      const result = item(element);
      append(issues, prefix([index], result.issues));
      out.push(result.value);
    }
    return issues.length ? { issues } : ok(out);
  });
}

/**
 * `items` (a list checker) with each item's `field` at most once: the answer names items by
 * it. A repeat is a `value_error` "Duplicate <what>" at the repeated item's field.
 */
export function distinctBy(items: Checker, field: string, what: string): Checker {
  // Said in words: JSON Schema's uniqueItems compares whole items, not one field of them.
  const said = `Each ${what} (\`${field}\`) at most once.`;
  const description = [items.schema.description, said].filter(Boolean).join(' ');
  return checker({ ...items.schema, description }, (v) => {
    const checked = items(v);
    if (checked.issues.length > 0) return checked;
    const seen = new Set<unknown>();
    const issues: Issue[] = [];
    for (const [index, item] of (v as Record<string, unknown>[]).entries()) {
      const value = item[field];
      if (seen.has(value)) {
        issues.push({
          loc: [index, field],
          msg: `Duplicate ${what} "${String(value)}"`,
          type: 'value_error',
          input: value,
        });
      }
      seen.add(value);
    }
    return issues.length > 0 ? { issues } : checked;
  });
}

export function dict(valueChecker: Checker, options: { maxEntries?: number } = {}): Checker {
  const { maxEntries } = options;
  const schema = {
    type: 'object',
    additionalProperties: valueChecker.schema,
    ...(maxEntries !== undefined ? { maxProperties: maxEntries } : {}),
  };
  return checker(schema, (v) => {
    if (!isPlainObject(v)) return fail('dict_type', 'Input should be a valid dictionary', v);
    const count = Object.keys(v).length;
    if (maxEntries !== undefined && count > maxEntries) {
      return fail(
        'too_long',
        `Dictionary should have at most ${maxEntries} entries, not ${count}`,
        '[too large to echo]',
        { field_type: 'Dictionary', max_length: maxEntries, actual_length: count },
      );
    }
    const issues: Issue[] = [];
    const out: Record<string, unknown> = {};
    for (const [key, element] of Object.entries(v)) {
      const result = valueChecker(element);
      append(issues, prefix([key], result.issues));
      out[key] = result.value;
    }
    return issues.length ? { issues } : ok(out);
  });
}

/** A nested request model; described once under components/schemas and referred to. */
export function model<T extends object>(cls: Class<T>): Checker {
  const name = registerModel(cls);
  return checker({ $ref: `#/components/schemas/${name}` }, (v) => {
    const { instance, issues } = validateModel(cls, v);
    return issues.length ? { issues } : ok(instance);
  });
}
