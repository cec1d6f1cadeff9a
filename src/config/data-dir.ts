import path from 'node:path';
import type { Env } from './setting.js';

/** DATA_DIR's default, relative to the working directory. */
export const DEFAULT_DATA_DIR = './data';

/**
 * DATA_DIR as the settings resolve it, without loading the schema: the admin CLI needs only
 * this to find a running server (the server validated its own settings).
 */
export function dataDirOf(env: Env): string {
  return path.resolve(env.DATA_DIR?.trim() || DEFAULT_DATA_DIR);
}
