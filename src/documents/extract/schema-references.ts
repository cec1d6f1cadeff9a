import type { ValidationErrorItem } from '../../common/validation-error.js';

/**
 * Bound on the schemas (objects, arrays and fields) of an extract schema once its references
 * are resolved. Far above what a real document holds (the largest forms have a few hundred
 * fields); each field is searched for over the whole document, so a runaway schema, or
 * references that multiply each other, is refused at once instead of holding an executor.
 */
export const MAX_SCHEMA_NODES = 2_000;

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isNullSchema = (value: unknown) => isNode(value) && value.type === 'null';

/** The value a local reference (`#/$defs/Item`, a JSON Pointer) points at, if any. */
function pointedAt(root: unknown, reference: string): unknown {
  if (reference === '#') return root;
  if (!reference.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const raw of reference.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, token)) return undefined;
    at = (at as Node)[token];
  }
  return at;
}

/**
 * The schema as extract reads it, written as generated schemas write it (Pydantic's
 * `model_json_schema()`, zod-to-json-schema): a local `$ref` is replaced by what it points
 * at (its sibling keywords kept), `anyOf`/`oneOf` of one schema and `null` (an optional
 * field) by that schema, `allOf` by its schemas merged. Other unions are left as they are.
 * A reference outside the schema, to nothing, or to itself (a schema of no finite depth),
 * and a schema past MAX_SCHEMA_NODES, add an error at their place.
 */
export function resolveReferences(
  schema: unknown,
  loc: (string | number)[],
  errors: ValidationErrorItem[],
): unknown {
  let nodes = 0;
  const resolve = (node: unknown, path: (string | number)[], refs: readonly string[]): unknown => {
    if (!isNode(node) || errors.length > 0) return node;
    if ('$ref' in node) {
      const { $ref: reference, ...siblings } = node;
      const target = typeof reference === 'string' ? pointedAt(schema, reference) : undefined;
      const refuse = (msg: string) => {
        errors.push({ loc: [...path, '$ref'], msg, type: 'schema_ref', input: reference });
        return node;
      };
      if (typeof reference !== 'string' || !reference.startsWith('#')) {
        return refuse('Only references within the schema ("#/$defs/...") are supported');
      }
      if (!isNode(target))
        return refuse(`"${reference}" does not point at a schema in this schema`);
      if (refs.includes(reference)) {
        return refuse(`"${reference}" contains itself; extract needs a schema of finite depth`);
      }
      return resolve({ ...target, ...siblings }, path, [...refs, reference]);
    }
    const { anyOf, oneOf, allOf, ...rest } = node;
    const union = Array.isArray(anyOf) ? anyOf : Array.isArray(oneOf) ? oneOf : undefined;
    const chosen = union?.filter((branch) => !isNullSchema(branch));
    if (chosen?.length === 1 && isNode(chosen[0])) {
      return resolve({ ...chosen[0], ...rest }, path, refs);
    }
    if (Array.isArray(allOf) && allOf.length > 0 && allOf.every(isNode)) {
      const parts = [...allOf.map((part) => resolve(part, path, refs) as Node), rest];
      const merged = Object.assign({}, ...parts) as Node;
      const withProperties = parts.filter((part) => isNode(part.properties));
      if (withProperties.length > 0) {
        merged.properties = Object.assign({}, ...withProperties.map((part) => part.properties));
      }
      return resolve(merged, path, refs);
    }
    if (++nodes > MAX_SCHEMA_NODES) {
      errors.push({
        loc,
        msg: `The schema has more than ${MAX_SCHEMA_NODES} objects, arrays and fields once its references are resolved`,
        type: 'schema_too_large',
        ctx: { max_nodes: MAX_SCHEMA_NODES },
      });
      return node;
    }
    const resolved: Node = { ...node };
    if (isNode(node.properties)) {
      resolved.properties = Object.fromEntries(
        Object.entries(node.properties).map(([key, child]) => [
          key,
          resolve(child, [...path, 'properties', key], refs),
        ]),
      );
    }
    if (node.items !== undefined) resolved.items = resolve(node.items, [...path, 'items'], refs);
    return resolved;
  };
  return resolve(schema, loc, []);
}
