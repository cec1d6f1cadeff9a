/** Raised when the file is locked by another process; carries that process's pid when known. */
export class DatabaseLockedError extends Error {
  constructor(
    readonly file: string,
    readonly holderPid: number | null,
  ) {
    super(`${file} is locked by another process`);
    this.name = 'DatabaseLockedError';
  }
}

/** DuckDB's message when another process holds the file's write lock. */
const LOCK_ERROR = /Could not set lock on file/i;

/** `error` as a DatabaseLockedError when it is DuckDB's refusal to open a locked `file`. */
export function asDatabaseLocked(error: unknown, file: string): DatabaseLockedError | null {
  const message = error instanceof Error ? error.message : String(error);
  if (!LOCK_ERROR.test(message)) return null;
  const pid = /PID (\d+)/.exec(message);
  return new DatabaseLockedError(file, pid ? Number(pid[1]) : null);
}
