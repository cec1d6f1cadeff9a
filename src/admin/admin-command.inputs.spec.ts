import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../common/api-error.js';
import {
  ACCOUNT_KEY_CREATE_INPUT,
  MEMBER_ADD_INPUT,
  NO_INPUT,
  ORG_CREATE_INPUT,
  validateInput,
} from './admin-command.inputs.js';

/** The 400 body `validateInput` throws for `raw`, or the validated input. */
function outcome(shape: Parameters<typeof validateInput>[0], raw: unknown): unknown {
  try {
    return { input: validateInput(shape, raw) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.getStatus(), body: error.getResponse() };
  }
}

// The messages, their order and the fields are those class-validator produced for the
// former DTOs (compared over ~950 inputs when the rules were moved), which clients read.
describe(validateInput.name, () => {
  it('reports every failed rule of every field in one 400 INVALID_ARGUMENTS', () => {
    expect(outcome(ACCOUNT_KEY_CREATE_INPUT, { userId: 5, orgId: 5, name: 5 })).toEqual({
      status: 400,
      body: {
        error: {
          code: 'INVALID_ARGUMENTS',
          message:
            'userId must be a string; orgId must be a string; name must be shorter than or ' +
            'equal to 100 characters; name must be a string',
          fields: ['userId', 'orgId', 'name'],
        },
      },
    });
  });

  it('refuses unknown fields first and skips absent or null optional ones', () => {
    expect(
      outcome(ACCOUNT_KEY_CREATE_INPUT, { userId: null, orgId: null, name: null, zz: 1 }),
    ).toEqual({
      status: 400,
      body: {
        error: {
          code: 'INVALID_ARGUMENTS',
          message:
            'property zz should not exist; userId should not be empty; userId must be a string',
          fields: ['zz', 'userId'],
        },
      },
    });
  });

  it('names the allowed values of a choice and counts characters as validator.js does', () => {
    expect(outcome(MEMBER_ADD_INPUT, { orgId: 'o', userId: 'u', role: 'god' })).toMatchObject({
      body: {
        error: { message: 'role must be one of the following values: owner, admin, member' },
      },
    });
    // 200 astral characters are 400 UTF-16 units, still 200 characters.
    expect(outcome(ORG_CREATE_INPUT, { name: '\u{1F600}'.repeat(200) })).toEqual({
      input: { name: '\u{1F600}'.repeat(200) },
    });
    expect(outcome(ORG_CREATE_INPUT, { name: '\u0091 \u200b' })).toMatchObject({
      body: { error: { message: 'name should hold a visible character', fields: ['name'] } },
    });
    expect(outcome(ORG_CREATE_INPUT, { name: 'a'.repeat(201) })).toMatchObject({
      body: { error: { message: 'name must be shorter than or equal to 200 characters' } },
    });
  });

  it('treats no input as an empty one, refuses any other value than an object, keeps only known fields', () => {
    expect(outcome(NO_INPUT, undefined)).toEqual({ input: {} });
    for (const [raw, kind] of [
      [null, 'null'],
      ['text', 'string'],
      [5, 'number'],
      [true, 'boolean'],
      [[], 'an array'],
      [[1], 'an array'],
    ] as const) {
      expect(outcome(NO_INPUT, raw)).toEqual({
        status: 400,
        body: {
          error: {
            code: 'INVALID_ARGUMENTS',
            message: `the input must be a JSON object, not ${kind}`,
            fields: [],
          },
        },
      });
    }
    expect(outcome(MEMBER_ADD_INPUT, { orgId: 'o', userId: 'u' })).toEqual({
      input: { orgId: 'o', userId: 'u' },
    });
    expect(outcome(MEMBER_ADD_INPUT, { orgId: 'o', userId: 'u', role: null })).toEqual({
      input: { orgId: 'o', userId: 'u' },
    });
  });
});
