// The types of server-process.mjs (see there).
import type { ChildProcess } from 'node:child_process';

/** A server started by `startServerProcess`. */
export interface ServerProcess {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  /** What it logged so far (stdout). */
  log(): string;
  stderr(): string;
  /** Waits until /health answers 200; throws should the process exit first. */
  healthy(timeoutMs: number): Promise<void>;
  /** Sends SIGTERM (after SIGCONT, were it stopped) and waits until the process is gone. */
  stop(): Promise<void>;
}

/**
 * The server as its own process on `dataDir` and a free port: `entry` is a build's
 * `src/main.js`, or `src/main.ts` to run it from source. `env` goes over DATA_DIR, PORT, HOST
 * and LOG_LEVEL (warn). Resolves once the process listens.
 */
export function startServerProcess(
  entry: string,
  dataDir: string,
  env?: Record<string, string>,
  timeoutMs?: number,
): Promise<ServerProcess>;
