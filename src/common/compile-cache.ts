import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { dataDirOf } from '../config/data-dir.js';

/** The folder of DATA_DIR that holds V8's compiled code of the server's modules. */
export const COMPILE_CACHE_FOLDER = 'compile-cache';

// Only Node's own modules here: this runs before the cache is on, and whatever it imported
// would be compiled without it.

/**
 * Turns on Node's compile cache (V8's code of each module, kept on disk) in
 * DATA_DIR/compile-cache, before the server's modules load: from the second start on, the
 * ~2,700 modules the server compiles before it listens are read instead (about 0.15 of
 * the 1.7 CPU-seconds a start took to /health; record 0478,
 * docs/decisions/0478-compile-cache-in-the-data-dir.md). A start without a cache pays about
 * as much to fill it. DATA_DIR, not the OS temporary
 * folder: another local user who could write a shared cache folder could have the server
 * run code of their own, and DATA_DIR is private to the server's user; it also outlives a
 * container, so a new one (a deploy, a restart in Kubernetes) still finds the modules that
 * did not change. NODE_COMPILE_CACHE (another folder) or NODE_DISABLE_COMPILE_CACHE=1 in the
 * environment win. A cache that cannot be set up only costs the speed: the start goes on
 * without it (an unusable DATA_DIR is the settings' to report, with the reason).
 */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  const dir = path.join(dataDirOf(env), COMPILE_CACHE_FOLDER);
  try {
    // Not DATA_DIR itself: a start whose settings are refused leaves no new DATA_DIR behind.
    // The first start creates it, private (private-data-dir.ts); the next one has a cache.
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return;
  }
  module.enableCompileCache(dir);
}
