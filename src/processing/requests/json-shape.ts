import type { ValidationErrorItem } from '../../common/validation-error.js';

export interface JsonShapeLimits {
  /** Deepest nesting of arrays/objects in a body (JSON_MAX_DEPTH). */
  maxDepth: number;
  /** Deepest nesting inside `async.metadata` (ASYNC_METADATA_MAX_DEPTH). */
  metadataMaxDepth: number;
  /** Largest `async.metadata` as compact JSON, in bytes (ASYNC_METADATA_MAX_BYTES). */
  metadataMaxBytes: number;
}

/** Stops looking once this many problems are found: the 422 lists a bounded number anyway. */
const MAX_PROBLEMS = 50;

type Path = (string | number)[];

/** A value of the body waiting to be checked, with where it sits (its path, made lazily). */
interface ShapeNode {
  value: unknown;
  parent: ShapeNode | null;
  key: string | number;
  depth: number;
  inMetadata: boolean;
}

function pathOf(node: ShapeNode): Path {
  const path: Path = [];
  for (let at: ShapeNode | null = node; at; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** An unpaired surrogate code unit (no `u` flag: the pattern sees code units). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function wellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/**
 * Checks a parsed JSON body before anything recursive touches it (validation, storage,
 * JSON.stringify of an error's `input`, which overflow the stack on deep nesting): nesting
 * depth, `async.metadata` depth, and strings or keys holding an unpaired UTF-16 surrogate
 * (`"\ud800"` is valid JSON but not Unicode; DuckDB and UTF-8 cannot store it, so it is
 * refused naming the field rather than stored altered). Iterative: a body nested 100,000
 * deep costs a loop, not a stack. Returns problems as 422 detail items, `loc` from `body`.
 */
export function jsonShapeProblems(body: unknown, limits: JsonShapeLimits): ValidationErrorItem[] {
  const problems: ValidationErrorItem[] = [];
  // A node's path is made only when it has a problem: a body of 150,000 items would
  // otherwise cost 150,000 path arrays (half a second of the API process, measured).
  const stack: ShapeNode[] = [
    { value: body, parent: null, key: 'body', depth: 0, inMetadata: false },
  ];
  const child = (parent: ShapeNode, key: string | number, value: unknown): void => {
    // Numbers, booleans and null have no shape to check.
    if (typeof value !== 'string' && (typeof value !== 'object' || value === null)) return;
    const inMetadata =
      parent.inMetadata || (parent.depth === 1 && parent.key === 'async' && key === 'metadata');
    stack.push({ value, parent, key, depth: parent.depth + 1, inMetadata });
  };
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const node = stack.pop()!;
    const { value, depth } = node;
    if (typeof value === 'string') {
      if (!wellFormed(value)) problems.push(surrogate(pathOf(node)));
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= limits.maxDepth) {
      problems.push(tooDeep(pathOf(node), 'json_too_deep', 'JSON body', limits.maxDepth));
      continue;
    }
    if (node.inMetadata && depth - 2 >= limits.metadataMaxDepth) {
      problems.push(
        tooDeep(pathOf(node), 'metadata_too_deep', 'async.metadata', limits.metadataMaxDepth),
      );
      continue;
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) child(node, i, value[i]);
      continue;
    }
    const entries = Object.entries(value as Record<string, unknown>);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, element] = entries[i];
      if (!wellFormed(key)) {
        const shown = key.replace(new RegExp(LONE_SURROGATE, 'g'), '\uFFFD');
        problems.push(surrogate([...pathOf(node), shown]));
        continue;
      }
      child(node, key, element);
    }
  }
  // Measured only once the shape is sound: JSON.stringify recurses.
  if (problems.length === 0) {
    const tooLarge = metadataTooLarge(body, limits.metadataMaxBytes);
    if (tooLarge) problems.push(tooLarge);
  }
  return problems;
}

function metadataTooLarge(body: unknown, limit: number): ValidationErrorItem | null {
  if (typeof body !== 'object' || body === null) return null;
  const options = (body as { async?: unknown }).async;
  if (typeof options !== 'object' || options === null) return null;
  const metadata = (options as { metadata?: unknown }).metadata;
  if (metadata === undefined) return null;
  const bytes = Buffer.byteLength(JSON.stringify(metadata) ?? '', 'utf8');
  if (bytes <= limit) return null;
  return {
    loc: ['body', 'async', 'metadata'],
    msg: `async.metadata is ${bytes} bytes of JSON; at most ${limit} are accepted (ASYNC_METADATA_MAX_BYTES)`,
    type: 'metadata_too_large',
    ctx: { max_bytes: limit },
  };
}

function surrogate(path: Path): ValidationErrorItem {
  return {
    loc: path,
    msg: 'String should be valid Unicode: it holds an unpaired UTF-16 surrogate',
    type: 'string_unicode',
  };
}

function tooDeep(path: Path, type: string, what: string, limit: number): ValidationErrorItem {
  return {
    loc: path.slice(0, 8),
    msg: `${what} is nested deeper than ${limit} levels`,
    type,
    ctx: { max_depth: limit },
  };
}
