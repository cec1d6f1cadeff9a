import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, ValidateBy, ValidationError, validateSync } from 'class-validator';
import { type ValidationErrorItem } from '../../common/validation-error.js';

/**
 * FastAPI-style request validation on top of class-validator DTOs.
 *
 * class-validator reports one message per constraint and knows nothing of locations inside
 * unions or lists, while the spec's HTTPValidationError wants pydantic's `loc`/`type`/`ctx`.
 * So DTO fields use plain class-validator decorators where they fit (booleans, enums) and
 * `@Check(checker)` for composite types; a checker returns issues relative to the field,
 * which `validateModel` prefixes with the field's location.
 */
type Loc = (string | number)[];
export type Issue = ValidationErrorItem;
export interface CheckResult {
  issues: Issue[];
  /** The converted value (a DTO instance for nested models) when there are no issues. */
  value?: unknown;
}
/** A JSON Schema (OpenAPI 3.1 dialect) describing what a checker accepts. */
export type JsonSchema = Record<string, unknown>;
/**
 * Validates one field's value. `schema` is what it accepts, in JSON Schema, so the OpenAPI
 * description is generated from the same code that validates (request-schema.ts).
 */
export interface Checker {
  (value: unknown): CheckResult;
  readonly schema: JsonSchema;
}
export type Class<T> = new () => T;

/** A checker from its validation function and the JSON Schema of what it accepts. */
export function checker(schema: JsonSchema, check: (value: unknown) => CheckResult): Checker {
  return Object.assign(check, { schema });
}

const models = new Map<string, Class<object>>();

/** The components/schemas name of a request model: its class name without `Dto`. */
export function modelName(cls: Class<unknown>): string {
  return cls.name.replace(/Dto$/, '');
}

/** Every request model a checker refers to (by `model(cls)`), by component name. */
export function registeredModels(): ReadonlyMap<string, Class<object>> {
  return models;
}

export function registerModel(cls: Class<object>): string {
  const name = modelName(cls);
  const known = models.get(name);
  if (known && known !== cls) throw new Error(`two request models are named ${name}`);
  models.set(name, cls);
  return name;
}

/** Names of the class-validator constraints of `@Check` and `@Required` (request-schema.ts reads them). */
export const CHECK = 'docproc_check';
export const REQUIRED = 'docproc_required';
const stash = new WeakMap<object, Map<string, Issue[]>>();

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const ok = (value: unknown): CheckResult => ({ issues: [], value });

export function fail(
  type: string,
  msg: string,
  input: unknown,
  ctx?: Record<string, unknown>,
  loc: Loc = [],
): CheckResult {
  return { issues: [{ loc, msg, type, input, ...(ctx ? { ctx } : {}) }] };
}

/**
 * Adds `items` to `issues` one by one: `push(...items)` passes each as an argument and
 * overflows the stack past ~100,000 (a list of 150,000 wrong items).
 */
export function append(issues: Issue[], items: Issue[]): void {
  for (const item of items) issues.push(item);
}

export function prefix(loc: Loc, issues: Issue[]): Issue[] {
  return issues.map((issue) => ({ ...issue, loc: [...loc, ...issue.loc] }));
}

/**
 * A required field: present in the body (null is a present value, checked by the type).
 * `whatToSend` completes the 422's "Field required" where the field's name alone does not
 * say what a client has to send (a field the SDK's types leave optional).
 */
export function Required(whatToSend?: string): PropertyDecorator {
  const message = whatToSend ? `Field required: ${whatToSend}` : 'Field required';
  return ValidateBy({
    name: REQUIRED,
    validator: { validate: (value) => value !== undefined, defaultMessage: () => message },
  });
}

/**
 * Validates (and converts) a field with a checker. `optional`: an absent field passes,
 * for fields without a default.
 */
export function Check(checker: Checker, options: { optional?: boolean } = {}): PropertyDecorator {
  return ValidateBy({
    name: CHECK,
    constraints: [checker],
    validator: {
      validate(value: unknown, args) {
        if (value === undefined) return options.optional === true || args === undefined;
        const result = checker(value);
        const target = args?.object as Record<string, unknown> | undefined;
        if (!target) return result.issues.length === 0;
        if (result.issues.length === 0) {
          target[args!.property] = result.value;
          return true;
        }
        let byField = stash.get(target);
        if (!byField) stash.set(target, (byField = new Map()));
        byField.set(args!.property, result.issues);
        return false;
      },
    },
  });
}

function knownProperties(cls: Class<unknown>): Set<string> {
  return new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(cls, '', true, false)
      .map((m) => m.propertyName),
  );
}

/** Issue for a plain class-validator constraint, in pydantic's vocabulary. */
function constraintsOf(cls: Class<unknown>, property: string, name: string): unknown[] {
  const meta = getMetadataStorage()
    .getTargetValidationMetadatas(cls, '', true, false)
    .find((m) => m.propertyName === property && m.name === name);
  return (meta?.constraints as unknown[] | undefined) ?? [];
}

function constraintIssue(cls: Class<unknown>, name: string, error: ValidationError): Issue {
  const input = error.value;
  switch (name) {
    case 'isBoolean':
      return { loc: [], type: 'bool_type', msg: 'Input should be a valid boolean', input };
    case 'isString':
      return { loc: [], type: 'string_type', msg: 'Input should be a valid string', input };
    case 'isInt':
      return { loc: [], type: 'int_type', msg: 'Input should be a valid integer', input };
    case 'isIn': {
      const allowed =
        (constraintsOf(cls, error.property, 'isIn')[0] as unknown[] | undefined) ?? [];
      const expected = quoteList(allowed);
      return allowed.length === 1
        ? {
            loc: [],
            type: 'literal_error',
            msg: `Input should be ${expected}`,
            input,
            ctx: { expected },
          }
        : { loc: [], type: 'enum', msg: `Input should be ${expected}`, input, ctx: { expected } };
    }
    default:
      return {
        loc: [],
        type: 'value_error',
        msg: error.constraints?.[name] ?? 'Invalid value',
        input,
      };
  }
}

export function quoteList(values: unknown[]): string {
  const quoted = values.map((v) => `'${String(v)}'`);
  return quoted.length <= 1
    ? (quoted[0] ?? '')
    : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/**
 * A rule across a request model's fields: the JSON Schema keywords that state it, merged into
 * the model's own schema (request-schema.ts), and its check, run once every field is valid.
 */
export interface FieldsRule {
  schema: JsonSchema;
  check: (instance: object) => Issue[];
}
const fieldsRules = new Map<Class<object>, FieldsRule>();

/** Declares the model's rule across fields (`@AcrossFields({ schema, check })`). */
export function AcrossFields(rule: FieldsRule): ClassDecorator {
  return (target) => {
    fieldsRules.set(target as unknown as Class<object>, rule);
  };
}

export function fieldsRuleOf(cls: Class<object>): FieldsRule | undefined {
  return fieldsRules.get(cls);
}

/**
 * Validates a JSON value against a DTO class: unknown fields are `extra_forbidden`,
 * defaults come from the class's property initializers. Returns the DTO instance when
 * there are no issues.
 */
export function validateModel<T extends object>(
  cls: Class<T>,
  value: unknown,
  loc: Loc = [],
): { instance?: T; issues: Issue[] } {
  if (!isPlainObject(value)) {
    return {
      issues: [
        {
          loc,
          type: 'model_attributes_type',
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: value,
        },
      ],
    };
  }
  const known = knownProperties(cls);
  const issues: Issue[] = [];
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (known.has(key)) picked[key] = value[key];
    else
      issues.push({
        loc: [...loc, key],
        type: 'extra_forbidden',
        msg: 'Extra inputs are not permitted',
        input: value[key],
      });
  }
  // Only known keys reach class-transformer; values are not converted (no implicit casts),
  // so a "true" string stays a string and fails `bool_type`.
  const instance = Object.assign(plainToInstance(cls, {}), picked);
  for (const error of validateSync(instance, { forbidUnknownValues: false })) {
    const names = Object.keys(error.constraints ?? {});
    const fieldLoc = [...loc, error.property];
    if (names.includes(REQUIRED)) {
      const msg = error.constraints?.[REQUIRED] ?? 'Field required';
      issues.push({ loc: fieldLoc, type: 'missing', msg, input: value });
    } else if (names.includes(CHECK)) {
      append(issues, prefix(fieldLoc, stash.get(instance)?.get(error.property) ?? []));
    } else if (names.length > 0) {
      append(issues, prefix(fieldLoc, [constraintIssue(cls, names[0], error)]));
    }
  }
  stash.delete(instance);
  const rule = fieldsRules.get(cls);
  if (issues.length === 0 && rule) append(issues, prefix(loc, rule.check(instance)));
  return issues.length > 0 ? { issues } : { instance, issues };
}
