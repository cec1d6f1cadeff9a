import { boundedMessage } from '../../common/api-error.js';
import { isOutOfSpace, STORAGE_FULL } from '../../common/http/storage-full.js';
import type { ValidationErrorItem } from '../../common/validation-error.js';
import {
  CorruptDocumentError,
  DocumentPasswordError,
  PageSelectionError,
  UnsupportedDocumentError,
} from '../../documents/readers/document.errors.js';
import { DocumentLimitError } from '../../documents/readers/document-limits.js';
import {
  ExecutorCrashedError,
  ExecutorLimitError,
} from '../../documents/executors/executor.errors.js';

/**
 * A failure the client can be told about: its message becomes the job's `reason`, and a
 * sync request answers with `status` and `{"error":{code,message}}`.
 */
export class ProcessingError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(boundedMessage(message));
    this.name = 'ProcessingError';
  }
}

/** Code of a `page_range` the document cannot satisfy; a sync request answers it with a 422. */
export const PAGE_RANGE_INVALID = 'PAGE_RANGE_INVALID';

/** The document library's typed errors as client-facing failures; anything else stays internal. */
export function toProcessingError(error: unknown): unknown {
  if (error instanceof PageSelectionError)
    return new ProcessingError(PAGE_RANGE_INVALID, error.message, 422);
  if (error instanceof UnsupportedDocumentError) {
    return new ProcessingError('UNSUPPORTED_DOCUMENT', error.message, 400);
  }
  if (error instanceof ExecutorLimitError || error instanceof ExecutorCrashedError)
    return new ProcessingError(error.code, error.message, error.status);
  if (error instanceof DocumentLimitError)
    return new ProcessingError(error.code, error.message, error.status);
  if (error instanceof CorruptDocumentError)
    return new ProcessingError('CORRUPT_DOCUMENT', error.message, 400);
  if (error instanceof DocumentPasswordError)
    return new ProcessingError(error.code, error.message, 400);
  // A stored request that no longer validates: the job fails naming the field, it never
  // runs on a wrong shape (a bug or an incompatible release, hence 500).
  if (error instanceof InvalidCommandError)
    return new ProcessingError('INVALID_JOB_REQUEST', error.message, 500);
  // The data volume filled while the job ran (its result or an intermediate file did not
  // fit, the disk-space reserve off or too small): a 503 the client retries once space is
  // freed, as an upload meeting a full volume answers, never an internal error.
  if (isOutOfSpace(error)) {
    return new ProcessingError(
      STORAGE_FULL,
      'The server ran out of disk space while processing the document; submit it again later',
      503,
    );
  }
  return error;
}

/** A queued payload that does not validate against its kind's command class. */
export class InvalidCommandError extends Error {
  constructor(
    readonly kind: string,
    readonly issues: ValidationErrorItem[],
  ) {
    const first = issues[0];
    super(
      `Invalid ${kind} command` +
        (first ? `: ${first.loc.join('.')}: ${first.msg}` : '') +
        (issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''),
    );
    this.name = 'InvalidCommandError';
  }
}
