import fs from 'node:fs';
import path from 'node:path';

/**
 * `DATA_DIR/admin.json`: how a CLI on this machine reaches the server that owns the DuckDB
 * file. Written (mode 0600) once the server listens, removed when it shuts down.
 */
export interface AdminEndpointFile {
  url: string;
  token: string;
  pid: number;
}

const ADMIN_FILE_NAME = 'admin.json';

export function adminFilePath(dataDir: string): string {
  return path.join(dataDir, ADMIN_FILE_NAME);
}

export function writeAdminFile(dataDir: string, endpoint: AdminEndpointFile): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const target = adminFilePath(dataDir);
  const temporary = `${target}.${process.pid}.tmp`;
  // Written whole then renamed, so a reader never sees half a file; 0600 keeps the token private.
  fs.writeFileSync(temporary, JSON.stringify(endpoint), { mode: 0o600 });
  fs.renameSync(temporary, target);
}

/** The endpoint file, or null when it is missing or not one of ours. */
export function readAdminFile(dataDir: string): AdminEndpointFile | null {
  let raw: string;
  try {
    raw = fs.readFileSync(adminFilePath(dataDir), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(raw) as Partial<AdminEndpointFile>;
    if (
      typeof parsed.url === 'string' &&
      typeof parsed.token === 'string' &&
      Number.isInteger(parsed.pid)
    ) {
      return { url: parsed.url, token: parsed.token, pid: parsed.pid as number };
    }
  } catch {
    // A torn or foreign file is treated as absent.
  }
  return null;
}

/** Removes the file only if it still describes `owner`, so a newer server's file survives. */
export function removeAdminFile(dataDir: string, owner: AdminEndpointFile): void {
  const current = readAdminFile(dataDir);
  if (current && current.pid === owner.pid && current.token === owner.token) {
    fs.rmSync(adminFilePath(dataDir), { force: true });
  }
}
