import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from './config-error.js';

/** The raw process environment, or a test's stand-in for it. */
export type Env = Record<string, string | undefined>;

/**
 * One environment variable: its name, how its text becomes a value (a zod schema), the
 * value when it is unset or empty, and what it means. `docs/configuration.md` is generated
 * from these, so the description is written for the person setting it.
 */
export interface Setting<T> {
  readonly kind: 'setting';
  readonly env: string;
  /** For the reference: "integer, 1 to 64", "boolean", ... */
  readonly type: string;
  /** For the reference: the default as a reader should see it (Markdown). */
  readonly defaultText: string;
  readonly doc: string;
  /** The value for `env`; throws ConfigError naming the variable. */
  read(env: Env): T;
}

/** A value the configuration carries that no variable sets (kept beside the settings it belongs to). */
interface Fixed<T> {
  readonly kind: 'fixed';
  readonly value: T;
}

export const fixed = <T>(value: T): Fixed<T> => ({ kind: 'fixed', value });

/** A section of settings: its shape is the shape of the configuration object it produces. */
export interface SettingsTree {
  readonly [key: string]: Setting<unknown> | Fixed<unknown> | SettingsTree;
}

/** The configuration object a tree of settings produces. */
export type Resolved<S> = {
  -readonly [K in keyof S]: S[K] extends Setting<infer T>
    ? T
    : S[K] extends Fixed<infer T>
      ? T
      : Resolved<S[K]>;
};

type Default<T> = T | ((env: Env) => T);

interface Spec<T> {
  type: string;
  /** Text to value; reports a problem as a zod issue whose message completes "VAR: ...". */
  schema: z.ZodType<T, string>;
  default: Default<T>;
  defaultText?: string;
  /** The value of a variable set to empty text, when that differs from leaving it unset. */
  empty?: T;
  /** A credential: a refused value is described by its length, never echoed. */
  secret?: boolean;
}

/** Credentials a URL may carry (`scheme://user:password@host`), hidden in messages. */
function withoutCredentials(raw: string): string {
  return raw.replace(/(\/\/)[^/@\s]*@/g, '$1[REDACTED]@');
}

function setting<T>(env: string, spec: Spec<T>, doc: string): Setting<T> {
  return {
    kind: 'setting',
    env,
    type: spec.type,
    doc,
    defaultText:
      spec.defaultText ??
      (typeof spec.default === 'function' ? 'derived' : formatDefault(spec.default)),
    read(values: Env): T {
      const raw = values[env];
      if (raw !== undefined && raw.trim() === '' && spec.empty !== undefined) return spec.empty;
      if (raw === undefined || raw.trim() === '') {
        return typeof spec.default === 'function'
          ? (spec.default as (e: Env) => T)(values)
          : spec.default;
      }
      const parsed = spec.schema.safeParse(raw);
      if (parsed.success) return parsed.data;
      const got = spec.secret
        ? `a value of ${raw.length} characters (not shown)`
        : `"${withoutCredentials(raw)}"`;
      throw new ConfigError(env, `${parsed.error.issues[0].message}, got ${got}`);
    },
  };
}

/** The default as Markdown for the reference. */
function formatDefault(value: unknown): string {
  if (value === null) return 'unset';
  if (Array.isArray(value)) return value.length ? `\`${value.join(',')}\`` : 'empty';
  return `\`${String(value)}\``;
}

interface Range {
  min?: number;
  max?: number;
}

function rangeText({ min, max }: Range): string {
  if (min !== undefined && max !== undefined) return `${min} to ${max}`;
  if (min !== undefined) return `≥ ${min}`;
  return max !== undefined ? `≤ ${max}` : 'any';
}

function integerSchema(range: Range): z.ZodType<number, string> {
  const within = `must be an integer ${rangeText(range)}`;
  return z
    .string()
    .trim()
    .regex(/^-?\d+$/, within)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(range.min ?? Number.MIN_SAFE_INTEGER, within)
        .max(range.max ?? Number.MAX_SAFE_INTEGER, within),
    );
}

/**
 * The longest delay a Node timer takes: past it `setTimeout` warns and fires after 1 ms, so
 * a time limit set "very high" would cut every fetch, task or grace period at once.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/** An integer; `scale` converts the unit people write (seconds) into the one code uses (ms). */
export function int(
  env: string,
  options: Range & {
    default: Default<number>;
    defaultText?: string;
    unit?: string;
    scale?: number;
  },
  doc: string,
): Setting<number> {
  const scale = options.scale ?? 1;
  const fallback = options.default;
  const range =
    options.unit === 'ms'
      ? { ...options, max: Math.min(options.max ?? MAX_TIMER_MS, MAX_TIMER_MS) }
      : options;
  return setting(
    env,
    {
      type: `integer, ${rangeText(range)}${options.unit ? ` (${options.unit})` : ''}`,
      schema: integerSchema(range).transform((value) => value * scale),
      default: typeof fallback === 'function' ? fallback : fallback * scale,
      defaultText:
        options.defaultText ?? (typeof fallback === 'function' ? undefined : String(fallback)),
    },
    doc,
  );
}

/** An integer that may be left unset (null: no limit). */
export function optionalInt(env: string, range: Range, doc: string): Setting<number | null> {
  return setting<number | null>(
    env,
    { type: `integer, ${rangeText(range)}`, schema: integerSchema(range), default: null },
    doc,
  );
}

export function float(
  env: string,
  options: Required<Range> & { default: number },
  doc: string,
): Setting<number> {
  const within = `must be a number from ${options.min} to ${options.max}`;
  const schema = z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/, within)
    .transform(Number)
    .pipe(z.number().min(options.min, within).max(options.max, within));
  return setting(
    env,
    { type: `number, ${rangeText(options)}`, schema, default: options.default },
    doc,
  );
}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];

export function bool(env: string, defaultValue: boolean, doc: string): Setting<boolean> {
  const schema = z
    .string()
    .trim()
    .transform((value) => value.toLowerCase())
    .pipe(z.enum([...TRUE, ...FALSE], 'must be true or false'))
    .transform((value) => TRUE.includes(value));
  return setting(env, { type: 'boolean', schema, default: defaultValue }, doc);
}

export function oneOf<T extends string>(
  env: string,
  values: readonly [T, ...T[]],
  defaultValue: T,
  doc: string,
): Setting<T> {
  const schema = z
    .string()
    .trim()
    .pipe(z.enum(values, `must be one of ${values.join(', ')}`));
  return setting(env, { type: `one of ${values.join(', ')}`, schema, default: defaultValue }, doc);
}

interface TextOptions<T> {
  default: Default<T>;
  defaultText?: string;
  /** Whole-value check, with the message naming what is expected. */
  pattern?: { regex: RegExp; message: string };
  type?: string;
  secret?: boolean;
}

export function text(env: string, options: TextOptions<string>, doc: string): Setting<string> {
  return setting(
    env,
    { ...options, type: options.type ?? 'string', schema: textSchema(options) },
    doc,
  );
}

/** A string that may be left unset (null). */
export function optionalText(
  env: string,
  options: Omit<TextOptions<string | null>, 'default'>,
  doc: string,
): Setting<string | null> {
  return setting<string | null>(
    env,
    { ...options, type: options.type ?? 'string', schema: textSchema(options), default: null },
    doc,
  );
}

function textSchema(options: { pattern?: { regex: RegExp; message: string } }) {
  const trimmed = z.string().trim();
  return options.pattern ? trimmed.regex(options.pattern.regex, options.pattern.message) : trimmed;
}

/** A file or directory; relative paths are resolved against the working directory at start. */
export function filePath(
  env: string,
  options: { default: Default<string>; defaultText: string; type?: string },
  doc: string,
): Setting<string> {
  const fallback = options.default;
  return setting(
    env,
    {
      type: options.type ?? 'path',
      schema: z
        .string()
        .trim()
        .transform((value) => path.resolve(value)),
      default:
        typeof fallback === 'function'
          ? (values: Env) => path.resolve(fallback(values))
          : path.resolve(fallback),
      defaultText: options.defaultText,
    },
    doc,
  );
}

/**
 * A comma-separated list; each item (trimmed, empty ones dropped) must match `item`, and
 * `map` turns a matching item into its value.
 */
export function list<T = string>(
  env: string,
  options: {
    item: { regex: RegExp; message: string };
    type: string;
    lowercase?: boolean;
    map?: (item: string) => T;
    /** Unset (default: empty). */
    default?: T[];
    /** Set to empty text (default: as unset). */
    empty?: T[];
    /** Why the items together cannot be used (completes "VAR: ..."), or undefined. */
    validate?: (items: string[]) => string | undefined;
  },
  doc: string,
): Setting<T[]> {
  const map = options.map ?? ((item: string) => item as T);
  const schema = z
    .string()
    .transform((raw) =>
      raw
        .split(',')
        .map((item) => (options.lowercase ? item.trim().toLowerCase() : item.trim()))
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(options.item.regex, options.item.message)))
    .superRefine((items, context) => {
      const problem = options.validate?.(items);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .transform((items) => items.map(map));
  return setting(env, { ...options, schema, default: options.default ?? [] }, doc);
}

const BYTE_SIZE = /^(\d+(?:\.\d+)?)\s*(B|KB|MB|GB|KiB|MiB|GiB)$/i;

/** Bytes of each unit as DuckDB reads them (KB = 1000, KiB = 1024). */
const BYTE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

/**
 * A DuckDB size setting, passed on as written (`256MB`, `1GiB`); `min` (in the same
 * notation) refuses a size DuckDB cannot work with, which would otherwise fail the start
 * half-way.
 */
export function byteSize(
  env: string,
  defaultValue: string,
  doc: string,
  options: { min?: string } = {},
): Setting<string> {
  const minBytes = options.min === undefined ? 0 : bytesOf(options.min);
  const expected = `must be a size such as 256MB${options.min ? `, at least ${options.min}` : ''}`;
  const schema = z
    .string()
    .trim()
    .regex(BYTE_SIZE, expected)
    .refine((value) => bytesOf(value) >= minBytes, expected);
  return setting(
    env,
    {
      type: `size (e.g. 256MB, 1GiB)${options.min ? `, at least ${options.min}` : ''}`,
      schema,
      default: defaultValue,
    },
    doc,
  );
}

function bytesOf(size: string): number {
  const [, amount, unit] = BYTE_SIZE.exec(size.trim()) ?? [];
  return Number(amount) * (BYTE_UNITS[unit?.toLowerCase() ?? ''] ?? Number.NaN);
}

/** Every setting of a tree, in declaration order. */
export function settingsOf(tree: SettingsTree): Setting<unknown>[] {
  return Object.values(tree).flatMap((node) => {
    if (node.kind === 'setting') return [node as Setting<unknown>];
    if (node.kind === 'fixed') return [];
    return settingsOf(node as SettingsTree);
  });
}

/**
 * Reads every setting of a tree. All bad variables are reported at once (the message names
 * each), so a deployment is fixed in one round.
 */
export function resolve<S extends SettingsTree>(tree: S, env: Env): Resolved<S> {
  const errors: ConfigError[] = [];
  const walk = (node: SettingsTree): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(node).map(([key, child]) => {
        if (child.kind === 'fixed') return [key, (child as Fixed<unknown>).value];
        if (child.kind !== 'setting') return [key, walk(child as SettingsTree)];
        try {
          return [key, (child as Setting<unknown>).read(env)];
        } catch (error) {
          if (!(error instanceof ConfigError)) throw error;
          errors.push(error);
          return [key, undefined];
        }
      }),
    );
  const resolved = walk(tree);
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) {
    const error = new ConfigError(errors[0].variable, errors[0].reason);
    error.message = `Invalid environment variables: ${errors
      .map((e) => `${e.variable}: ${e.reason}`)
      .join('; ')}`;
    throw error;
  }
  return resolved as Resolved<S>;
}
