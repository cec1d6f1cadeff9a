import { ProcessingError } from '../core/processing-error.js';

/** An input past what its request's inputs may still take (`leftBytes`, under MAX_UPLOAD_BYTES). */
export function tooLarge(leftBytes: number): ProcessingError {
  return new ProcessingError(
    'INPUT_TOO_LARGE',
    `The input is larger than ${leftBytes} bytes, what MAX_UPLOAD_BYTES leaves for it ` +
      '(the inputs of one request count together)',
    413,
  );
}

/** The inputs of one request past MAX_UPLOAD_BYTES together. */
export function inputsTooLarge(limitBytes: number): ProcessingError {
  return new ProcessingError(
    'INPUT_TOO_LARGE',
    `The inputs of this request are larger than ${limitBytes} bytes together (MAX_UPLOAD_BYTES)`,
    413,
  );
}
