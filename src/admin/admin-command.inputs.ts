import isLengthModule from 'validator/lib/isLength.js';
import { MEMBER_ROLES } from '../accounts/accounts.types.js';
import { ApiError } from '../common/api-error.js';
import { hasVisibleCharacter } from '../common/visible-text.js';
import { unreadableFileReason } from './readable-file.js';

// A CommonJS module whose export is the function, with itself as `.default` (the typed name).
const isLength = isLengthModule.default;

/**
 * The input rules of the admin commands, checked by `validateInput` for both transports
 * (the running server's admin endpoint and docproc-admin's direct path). Plain data rather
 * than class-validator DTOs: loading class-validator costs the direct path ~0.25 s of its
 * 0.5 s (docs/decisions/0088-admin-cli-direct-path-without-nest.md). Messages and their
 * order are class-validator's, as before.
 */
interface FieldRule<T = string, Optional extends boolean = boolean> {
  /** Absent, null and undefined pass and skip the other checks. */
  readonly optional: Optional;
  /** A string (class-validator's IsString). */
  readonly string: boolean;
  /** Not '', null or undefined (IsNotEmpty). */
  readonly notEmpty: boolean;
  /** At most this many characters, as validator.js counts them (MaxLength). */
  readonly maxLength?: number;
  /** One of these values (IsIn). */
  readonly oneOf?: readonly T[];
  /** A boolean (IsBoolean): a command-line flag without a value. */
  readonly boolean?: boolean;
  /** The absolute path of a regular file this process can read (it opens it). */
  readonly readableFile?: boolean;
  /** Holds a character a reader sees (common/visible-text.ts): a name, never blank. */
  readonly visible?: boolean;
}

export type InputShape = Readonly<Record<string, FieldRule<unknown>>>;

type ValueOf<R> = R extends FieldRule<infer T> ? T : never;
/** The validated input of a shape: its required fields, and its optional ones as optional. */
export type InputOf<S extends InputShape> = {
  -readonly [K in keyof S as S[K] extends FieldRule<unknown, true> ? never : K]: ValueOf<S[K]>;
} & {
  -readonly [K in keyof S as S[K] extends FieldRule<unknown, true> ? K : never]?: ValueOf<S[K]>;
};

function text(
  options: { maxLength?: number; notEmpty?: boolean; visible?: boolean } = {},
): FieldRule<string, false> {
  return {
    optional: false,
    string: true,
    notEmpty: options.notEmpty ?? true,
    maxLength: options.maxLength,
    visible: options.visible,
  };
}

function readableFile(): FieldRule<string, false> {
  return { ...text(), readableFile: true };
}

function oneOf<T extends string>(values: readonly T[]): FieldRule<T, false> {
  return { optional: false, string: false, notEmpty: false, oneOf: values };
}

function flag(): FieldRule<boolean, true> {
  return { optional: true, string: false, notEmpty: false, boolean: true };
}

function optional<T>(rule: FieldRule<T, false>): FieldRule<T, true> {
  return { ...rule, optional: true };
}

export const NO_INPUT = {} as const satisfies InputShape;
export const ORG_CREATE_INPUT = { name: text({ maxLength: 200, visible: true }) } as const;
// The service validates the address itself, so both the CLI and HTTP paths say the same.
export const USER_CREATE_INPUT = { email: text() } as const;
export const MEMBER_ADD_INPUT = {
  orgId: text(),
  userId: text(),
  role: optional(oneOf(MEMBER_ROLES)),
} as const;
export const ACCOUNT_KEY_CREATE_INPUT = {
  userId: text(),
  orgId: optional(text()),
  name: optional(text({ maxLength: 100, notEmpty: false })),
} as const;
export const PROCESSING_KEY_CREATE_INPUT = {
  orgId: text(),
  name: optional(text({ maxLength: 100, notEmpty: false })),
} as const;
export const ORG_INPUT = { orgId: text() } as const;
export const USER_INPUT = { userId: text() } as const;
export const PROCESSING_KEY_REVOKE_INPUT = { orgId: text(), keyId: text() } as const;
export const METADATA_KEY_INPUT = { orgId: text(), key: text({ maxLength: 256 }) } as const;
export const FILE_INPUT = { file: readableFile() } as const;
export const USAGE_IMPORT_INPUT = { file: readableFile(), allowLate: flag() } as const;
export const BACKFILL_INPUT = { to: oneOf(['clickhouse'] as const) } as const;
export const ACCOUNT_KEY_REVOKE_INPUT = { userId: text(), keyId: text() } as const;

/** class-validator's messages for one field, in the order it reported them. */
function fieldMessages(field: string, rule: FieldRule<unknown>, value: unknown): string[] {
  const messages: string[] = [];
  if (rule.oneOf && !rule.oneOf.some((allowed) => allowed === value)) {
    messages.push(`${field} must be one of the following values: ${rule.oneOf.join(', ')}`);
  }
  if (
    rule.maxLength !== undefined &&
    !(typeof value === 'string' && isLength(value, { min: 0, max: rule.maxLength }))
  ) {
    messages.push(`${field} must be shorter than or equal to ${rule.maxLength} characters`);
  }
  if (rule.notEmpty && (value === '' || value === null || value === undefined)) {
    messages.push(`${field} should not be empty`);
  }
  if (rule.string && !(typeof value === 'string' || value instanceof String)) {
    messages.push(`${field} must be a string`);
  }
  if (rule.visible && typeof value === 'string' && value !== '' && !hasVisibleCharacter(value)) {
    messages.push(`${field} should hold a visible character`);
  }
  if (rule.boolean && typeof value !== 'boolean') {
    messages.push(`${field} must be a boolean value`);
  }
  if (rule.readableFile && messages.length === 0) {
    const reason = unreadableFileReason(value as string);
    if (reason !== null) messages.push(`${field}: cannot read ${String(value)}: ${reason}`);
  }
  return messages;
}

/**
 * The input of a command checked against its shape: no input (no body) counts as an empty
 * object and any other value than an object is refused, unknown fields are refused, and every failure becomes one 400
 * `INVALID_ARGUMENTS` naming the fields.
 */
export function validateInput<S extends InputShape>(shape: S, raw: unknown): InputOf<S> {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    const kind = raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw;
    throw ApiError.badRequest('INVALID_ARGUMENTS', `the input must be a JSON object, not ${kind}`, {
      fields: [],
    });
  }
  const record = (raw ?? {}) as Record<string, unknown>;
  const failures: { field: string; messages: string[] }[] = [];
  for (const field of Object.keys(record)) {
    // A JSON `__proto__` key is dropped, as Nest's pipe did, rather than refused.
    if (field !== '__proto__' && !Object.hasOwn(shape, field)) {
      failures.push({ field, messages: [`property ${field} should not exist`] });
    }
  }
  const input: Record<string, unknown> = {};
  for (const [field, rule] of Object.entries(shape)) {
    const value = Object.hasOwn(record, field) ? record[field] : undefined;
    const skipped = rule.optional && (value === null || value === undefined);
    const messages = skipped ? [] : fieldMessages(field, rule, value);
    if (messages.length > 0) failures.push({ field, messages });
    // A null optional field is left out as an absent one: the command's own default applies
    // (a null role reached the service, which refused it as no role).
    else if (!skipped && value !== undefined) input[field] = value;
  }
  if (failures.length > 0) {
    throw ApiError.badRequest(
      'INVALID_ARGUMENTS',
      failures.flatMap((failure) => failure.messages).join('; '),
      { fields: failures.map((failure) => failure.field) },
    );
  }
  return input as InputOf<S>;
}
