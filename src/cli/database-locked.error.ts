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
