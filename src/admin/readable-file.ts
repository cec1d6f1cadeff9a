import fs from 'node:fs';
import path from 'node:path';

/**
 * Why the process cannot read the file at `absolute`, or null when it can: a missing file,
 * a folder or a file without read permission answered a 500 once the command opened it.
 */
export function unreadableFileReason(absolute: string): string | null {
  if (!path.isAbsolute(absolute)) return 'not an absolute path';
  try {
    fs.accessSync(absolute, fs.constants.R_OK);
    return fs.statSync(absolute).isFile() ? null : 'not a regular file';
  } catch (error) {
    return (error as Error).message;
  }
}
