import { RequestValidationError, type ValidationErrorItem } from '../../common/validation-error.js';
import {
  CorruptDocumentError,
  DocumentPasswordError,
  type DocumentPasswordProblem,
  PageSelectionError,
  TooManyPagesSelectedError,
  UnsupportedDocumentError,
} from '../readers/document.errors.js';
import { DocumentLimitError } from '../readers/document-limits.js';

/** An error as it crosses the process boundary (serialization drops classes and fields). */
interface SerializedTaskError {
  name: string;
  message: string;
  fields: Record<string, unknown>;
}

/** What an executor answers: its errors travel as data, never as rejections. */
export type TaskReply<R> = { ok: true; result: R } | { ok: false; error: SerializedTaskError };

export function serializeError(error: unknown): SerializedTaskError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (key !== 'cause') fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

/** Rebuilds the typed document and request errors so callers can map them to 4xx responses. */
export function deserializeError(error: SerializedTaskError): Error {
  const f = error.fields;
  switch (error.name) {
    case 'UnsupportedDocumentError':
      return new UnsupportedDocumentError(error.message, f.detectedMime as string | undefined);
    case 'CorruptDocumentError':
      return new CorruptDocumentError(String(f.fileType), error.message);
    case 'DocumentPasswordError':
      return new DocumentPasswordError(f.problem as DocumentPasswordProblem);
    case 'TooManyPagesSelectedError':
      return new TooManyPagesSelectedError(Number(f.count), Number(f.max), f.input);
    case 'DocumentLimitError':
      return new DocumentLimitError(String(f.limit), error.message, f.status === 422 ? 422 : 413);
    case 'PageSelectionError':
      return new PageSelectionError(
        f.kind as PageSelectionError['kind'],
        error.message,
        f.input,
        f.ctx as Record<string, unknown>,
      );
    case 'RequestValidationError':
      // A request rule only the executor could check (e.g. an extract schema's): still a 422.
      return new RequestValidationError(f.detail as ValidationErrorItem[]);
    default: {
      const rebuilt = new Error(error.message);
      rebuilt.name = error.name;
      return rebuilt;
    }
  }
}
