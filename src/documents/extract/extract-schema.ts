import { RequestValidationError, type ValidationErrorItem } from '../../common/validation-error.js';
import { resolveReferences } from './schema-references.js';

/** The part of JSON Schema extract understands; other keywords are ignored. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  format?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
}

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

export function typeOf(schema: JsonSchema): string {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type) return type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return 'string';
}

/**
 * Checks an extract request's schema before any download (422 at `instructions.schema`).
 * Here rather than beside runExtract, so the API process validates without loading the
 * document libraries.
 */
export function validateExtractRequest(request: { instructions?: { schema?: unknown } }): void {
  const loc = ['body', 'instructions', 'schema'];
  if (request.instructions && request.instructions.schema === undefined) {
    throw new RequestValidationError([
      { loc, msg: 'Field required', type: 'missing', input: request.instructions },
    ]);
  }
  validateSchema(request.instructions?.schema, loc);
}

/**
 * Checks the schema is one extract can fill; 422 details point into `instructions.schema`.
 * Returns it with its references resolved (schema-references.ts), as extract reads it.
 */
export function validateSchema(request: unknown, loc: (string | number)[]): JsonSchema {
  const errors: ValidationErrorItem[] = [];
  const schema = resolveReferences(request, loc, errors);
  if (errors.length > 0) throw new RequestValidationError(errors);
  const visit = (node: unknown, path: (string | number)[], root: boolean) => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) {
      errors.push({
        loc: path,
        msg: 'A schema must be a JSON object',
        type: 'schema_type',
        input: node,
      });
      return;
    }
    const s = node as JsonSchema;
    const type = typeOf(s);
    if (root && (type !== 'object' || !s.properties)) {
      errors.push({
        loc: path,
        msg: 'The schema must be an object schema with "properties"',
        type: 'schema_root',
        input: node,
      });
      return;
    }
    if (type === 'object') {
      if (
        s.properties !== undefined &&
        (typeof s.properties !== 'object' || s.properties === null || Array.isArray(s.properties))
      ) {
        errors.push({
          loc: [...path, 'properties'],
          msg: '"properties" must be an object',
          type: 'schema_properties',
        });
        return;
      }
      for (const [key, child] of Object.entries(s.properties ?? {}))
        visit(child, [...path, 'properties', key], false);
    } else if (type === 'array') {
      if (s.items !== undefined) visit(s.items, [...path, 'items'], false);
    } else if (!SCALAR_TYPES.has(type)) {
      errors.push({
        loc: [...path, 'type'],
        msg: `Unsupported type "${type}"; use string, number, integer, boolean, object or array`,
        type: 'schema_type',
        input: type,
      });
    }
  };
  visit(schema, loc, true);
  if (errors.length > 0) throw new RequestValidationError(errors);
  return schema as JsonSchema;
}

/** Number of leaf fields the schema asks for (array item properties count once). */
export function countFields(schema: JsonSchema): number {
  const type = typeOf(schema);
  if (type === 'object') {
    return Object.values(schema.properties ?? {}).reduce(
      (sum, child) => sum + countFields(child),
      0,
    );
  }
  if (type === 'array' && schema.items && typeOf(schema.items) === 'object')
    return countFields(schema.items);
  return 1;
}
