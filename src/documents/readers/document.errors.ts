/**
 * Errors of document loading and page selection. They are plain errors (no HTTP types) so
 * the library also runs in worker threads; the HTTP layer maps them by class or `code`.
 */

/** Content is not a supported document type (HTTP layer: 422/400). */
export class UnsupportedDocumentError extends Error {
  readonly code = 'UNSUPPORTED_DOCUMENT';
  constructor(
    message: string,
    /** MIME type detected from content when known, e.g. `application/zip`. */
    readonly detectedMime?: string,
  ) {
    super(message);
    this.name = 'UnsupportedDocumentError';
  }
}

/** Content claims a supported type but cannot be read (truncated, encrypted, broken). */
export class CorruptDocumentError extends Error {
  readonly code = 'CORRUPT_DOCUMENT';
  constructor(
    readonly fileType: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CorruptDocumentError';
  }
}

export type DocumentPasswordProblem = 'password_required' | 'password_incorrect';

/**
 * A PDF encrypted with a user password that the request did not give, or gave wrong
 * (HTTP layer: 400 naming the problem). The password itself is never in the message.
 */
export class DocumentPasswordError extends Error {
  readonly code: 'DOCUMENT_PASSWORD_REQUIRED' | 'DOCUMENT_PASSWORD_INCORRECT';
  constructor(readonly problem: DocumentPasswordProblem) {
    super(
      problem === 'password_required'
        ? 'The PDF is password-protected: send its password as document_password in the parse settings (settings, or parsing.settings for extract and split)'
        : 'The PDF is password-protected and document_password does not open it',
    );
    this.code =
      problem === 'password_required'
        ? 'DOCUMENT_PASSWORD_REQUIRED'
        : 'DOCUMENT_PASSWORD_INCORRECT';
    this.name = 'DocumentPasswordError';
  }
}

type PageSelectionErrorKind = 'invalid_page_range' | 'too_many_pages' | 'no_pages_selected';

/** `page_range` cannot be applied (HTTP layer: 422 at `["body","page_range"]`). */
export class PageSelectionError extends Error {
  constructor(
    readonly kind: PageSelectionErrorKind,
    message: string,
    /** The offending `page_range` value. */
    readonly input: unknown,
    /** Extra facts for the 422 `ctx`, e.g. `{ count: 12, max: 10 }`. */
    readonly ctx: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'PageSelectionError';
  }
}

/** More than the allowed number of pages is selected; `count` says how many. */
export class TooManyPagesSelectedError extends PageSelectionError {
  constructor(
    readonly count: number,
    readonly max: number,
    input: unknown,
  ) {
    super(
      'too_many_pages',
      `page_range selects ${count} pages; at most ${max} pages can be selected`,
      input,
      { count, max },
    );
    this.name = 'TooManyPagesSelectedError';
  }
}
