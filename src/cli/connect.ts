import { readAdminFile } from '../admin/admin-file.js';
import { dataDirOf } from '../config/data-dir.js';
import type { Env } from '../config/setting.js';
import type { AdminTransport } from './admin-transport.js';
import { CliError, EXIT } from './cli-error.js';
import { DatabaseLockedError } from './database-locked.error.js';

/**
 * DuckDB allows one read-write process per file, so the CLI never opens the file under a
 * running server: if DATA_DIR/admin.json names a live server that answers, commands go to
 * its admin endpoint; otherwise the CLI opens the file itself, and if some other process
 * holds the lock it refuses instead of waiting or touching the file.
 */
export async function connect(env: Env, commandName: string): Promise<AdminTransport> {
  const endpoint = readAdminFile(dataDirOf(env));
  const serverAlive = endpoint !== null && processAlive(endpoint.pid);
  if (endpoint && serverAlive) {
    // Loaded only when a server may answer, like the direct path's modules below.
    const { HttpTransport } = await import('./http-transport.js');
    if (await HttpTransport.reachable(endpoint)) return new HttpTransport(endpoint);
  }
  try {
    // Loaded only here: the settings schema, the services and DuckDB are what makes a
    // direct run slower. A bad setting is refused here (ConfigError), not in HTTP mode,
    // where the server's own settings apply.
    const { loadConfig } = await import('../config/app-config.js');
    const { DirectTransport } = await import('./direct-transport.js');
    return await DirectTransport.open(loadConfig(env), commandName);
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error;
    const holder = error.holderPid === null ? 'another process' : `process ${error.holderPid}`;
    const why =
      endpoint && serverAlive && (error.holderPid === null || error.holderPid === endpoint.pid)
        ? `the docproc server (pid ${endpoint.pid}) holds it but does not answer at ${endpoint.url}`
        : `${holder} holds it and is not a docproc server this CLI can reach`;
    throw new CliError(
      `refusing to open ${error.file}: ${why}. Nothing was changed; retry once the server ` +
        'answers, or stop that process.',
      EXIT.busy,
    );
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
