import { describe, expect, it } from '@jest/globals';
import { RequestValidationError } from '../../common/validation-error.js';
import { CorruptDocumentError } from '../readers/document.errors.js';
import { deserializeError, serializeError } from './task-reply.js';

/** What crosses the executor boundary as data comes back as the error the HTTP layer maps. */
describe('task errors across the executor boundary', () => {
  // Through JSON, as the IPC channel carries them.
  const roundTrip = (error: Error) =>
    deserializeError(JSON.parse(JSON.stringify(serializeError(error))));

  it('keeps a request rule checked in the executor a 422 with its detail', () => {
    const detail = [
      { loc: ['body', 'split_description', 1, 'name'], msg: 'Duplicate', type: 'value_error' },
    ];
    const rebuilt = roundTrip(new RequestValidationError(detail));
    expect(rebuilt).toBeInstanceOf(RequestValidationError);
    expect((rebuilt as RequestValidationError).getStatus()).toBe(422);
    expect((rebuilt as RequestValidationError).detail).toEqual(detail);
  });

  it('keeps document errors typed and other errors plain', () => {
    expect(roundTrip(new CorruptDocumentError('pdf', 'broken'))).toBeInstanceOf(
      CorruptDocumentError,
    );
    const other = roundTrip(new TypeError('x is undefined'));
    expect([other.constructor, other.name, other.message]).toEqual([
      Error,
      'TypeError',
      'x is undefined',
    ]);
  });
});
