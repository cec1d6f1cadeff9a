import { ADMIN_COMMANDS } from '../../src/admin/admin-commands.js';
import type { InputShape } from '../../src/admin/admin-command.inputs.js';
import { visibleTextPattern } from '../../src/common/visible-text.js';

/**
 * An OpenAPI 3.1 description of the admin endpoint, for the conformance fuzzer only: the
 * endpoint is no public API (left out of /openapi.json) and answers to the token of
 * DATA_DIR/admin.json alone. Built from the commands' own input rules, so it cannot drift
 * from what `validateInput` checks: one operation per command at its fixed path, its body
 * the command's fields.
 */
export function adminApiDescription(serverUrl: string): Record<string, unknown> {
  const error = {
    description: 'Refused',
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: { code: { type: 'string' }, message: { type: 'string' } },
            },
          },
        },
      },
    },
  };
  const answered = {
    description: 'Done',
    content: { 'application/json': { schema: { type: ['object', 'array'] } } },
  };
  const paths: Record<string, unknown> = {
    '/admin/v1/ping': {
      get: {
        operationId: 'ping',
        responses: {
          '200': {
            description: 'The process id',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['pid'],
                  properties: { pid: { type: 'integer' } },
                },
              },
            },
          },
          '401': error,
        },
      },
    },
  };
  for (const command of ADMIN_COMMANDS) {
    paths[`/admin/v1/commands/${command.name}`] = {
      post: {
        operationId: command.name,
        summary: command.description,
        // No body reads as `{}`: a command without required fields needs none.
        requestBody: {
          required: Object.values(command.input).some((rule) => !rule.optional),
          content: { 'application/json': { schema: inputSchema(command.input) } },
        },
        responses: {
          '200': answered,
          '400': error,
          '401': error,
          '404': error,
          '409': error,
          '503': error,
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'docproc admin endpoint', version: '1' },
    servers: [{ url: serverUrl }],
    components: { securitySchemes: { adminToken: { type: 'http', scheme: 'bearer' } } },
    security: [{ adminToken: [] }],
    paths,
  };
}

function inputSchema(shape: InputShape): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [field, rule] of Object.entries(shape)) {
    let schema: Record<string, unknown>;
    if (rule.boolean) schema = { type: 'boolean' };
    else if (rule.oneOf) schema = { enum: [...rule.oneOf] };
    else {
      schema = {
        type: 'string',
        ...(rule.notEmpty ? { minLength: 1 } : {}),
        ...(rule.maxLength !== undefined ? { maxLength: rule.maxLength } : {}),
        // A file the server opens: an absolute path (whether it is readable, no schema knows).
        ...(rule.readableFile ? { pattern: '^/' } : {}),
        ...(rule.visible ? { pattern: visibleTextPattern() } : {}),
      };
    }
    properties[field] = rule.optional ? { anyOf: [schema, { type: 'null' }] } : schema;
    if (!rule.optional) required.push(field);
  }
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}
