/** Exit codes of docproc-admin. */
export const EXIT = { ok: 0, failed: 1, usage: 2, busy: 3 } as const;

/** An error the CLI reports as one line on stderr before exiting with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** One readable line for any error, `message (CODE)` for the API error envelope. */
export function describeError(error: unknown): string {
  if (error instanceof CliError) return error.message;
  // An HttpException of the direct path, told by shape: importing Nest here would cost
  // every command its load time.
  const response = (error as { getResponse?: () => unknown } | null)?.getResponse?.();
  const body = response as { error?: { code?: string; message?: string } } | undefined;
  if (body?.error?.message) return `${body.error.message} (${body.error.code})`;
  return error instanceof Error ? error.message : String(error);
}

/** Reads the `{"error":{code,message}}` envelope of a failed admin HTTP call. */
export function describeErrorBody(status: number, body: unknown): string {
  const error = (body as { error?: { code?: string; message?: string; requestId?: string } })
    ?.error;
  if (!error?.message) return `the server answered HTTP ${status}`;
  if (status >= 500) {
    return `the server failed (HTTP ${status}, request id ${error.requestId ?? 'unknown'}); see its log`;
  }
  return `${error.message} (${error.code})`;
}
