import { applyDecorators } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import {
  CHECK,
  type Checker,
  type Class,
  fieldsRuleOf,
  type JsonSchema,
  registerModel,
  registeredModels,
  REQUIRED,
} from './request-validation.js';

/**
 * JSON Schemas of the request models, generated from the same decorators that validate
 * them: `@Check(checker)` contributes the checker's schema, `@Required()` the `required`
 * list, plain class-validator decorators (`@IsBoolean`, `@IsIn`, `@Allow`) their types,
 * and property initializers the defaults. Unknown fields are refused (`extra_forbidden`),
 * hence `additionalProperties: false`.
 */
function requestModelSchema(cls: Class<object>): JsonSchema {
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
  const defaults = new cls() as Record<string, unknown>;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const meta of metadatas) {
    const name = meta.propertyName;
    let schema: JsonSchema | undefined;
    if (meta.name === REQUIRED) required.push(name);
    else if (meta.name === CHECK) schema = (meta.constraints[0] as Checker).schema;
    else if (meta.name === 'isBoolean') schema = { type: 'boolean' };
    else if (meta.name === 'isIn') schema = { enum: [...(meta.constraints[0] as unknown[])] };
    else if (meta.type === 'whitelistValidation') schema = { description: 'Any JSON value' };
    if (schema) properties[name] = { ...properties[name], ...schema };
    else properties[name] ??= {};
  }
  for (const [name, schema] of Object.entries(properties)) {
    const value = defaults[name];
    if (value !== undefined) properties[name] = { ...schema, default: toJson(value) };
  }
  return {
    type: 'object',
    properties,
    ...(required.length ? { required: [...new Set(required)] } : {}),
    additionalProperties: false,
    ...fieldsRuleOf(cls)?.schema,
  };
}

function toJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/** Every registered request model (those a route or another model refers to), described. */
export function requestModelSchemas(): Record<string, JsonSchema> {
  return Object.fromEntries(
    [...registeredModels()].map(([name, cls]) => [name, requestModelSchema(cls)]),
  );
}

/** The route's JSON body is this request model (validated by ValidatedBodyPipe). */
export function ApiJsonBody(cls: Class<object>): MethodDecorator {
  const name = registerModel(cls);
  return applyDecorators(
    ApiBody({ required: true, schema: { $ref: `#/components/schemas/${name}` } }),
  );
}
