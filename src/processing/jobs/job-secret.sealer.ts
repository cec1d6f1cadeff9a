import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The key file of a data directory: 32 random bytes, readable by its owner only. */
export const JOB_SECRET_KEY_FILE = 'job-secrets.key';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1:';

function readKey(file: string): Buffer {
  const key = fs.readFileSync(file);
  if (key.length !== KEY_BYTES) throw new Error(`${file} is not a ${KEY_BYTES}-byte key`);
  return key;
}

/** The data directory's key, made on first use (exclusively: two processes agree on one). */
function loadOrCreateKey(file: string): Buffer {
  try {
    return readKey(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const key = crypto.randomBytes(KEY_BYTES);
  try {
    fs.writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readKey(file);
  }
}

/**
 * Seals a job's secret (a document password) for its row with AES-256-GCM under a key kept
 * in the data directory beside, not inside, the database: the database file, its WAL, a
 * snapshot an export replica follows or a backup of it never hold the password in plain
 * text. Without a data directory (unit tests) the key lives in memory.
 */
export class JobSecretSealer {
  private key: Buffer | undefined;

  constructor(private readonly keyFile: string | null) {}

  private keyOf(): Buffer {
    this.key ??= this.keyFile ? loadOrCreateKey(this.keyFile) : crypto.randomBytes(KEY_BYTES);
    return this.key;
  }

  seal(plain: string): string {
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.keyOf(), iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return VERSION + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
  }

  /** The plain secret; null when it cannot be opened (the key file was replaced or lost). */
  open(sealed: string): string | null {
    if (!sealed.startsWith(VERSION)) return null;
    try {
      const bytes = Buffer.from(sealed.slice(VERSION.length), 'base64');
      const iv = bytes.subarray(0, IV_BYTES);
      const tag = bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.keyOf(), iv);
      decipher.setAuthTag(tag);
      const body = bytes.subarray(IV_BYTES + TAG_BYTES);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
