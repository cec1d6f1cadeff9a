import type { Command } from 'commander';
import { CliError, EXIT } from './cli-error.js';
import { asDatabaseLocked } from './database-locked.error.js';

/**
 * Operations commands of docproc-admin. The upgrade ones talk to Redis and to the running
 * HTTP process, never to the DuckDB file; `database compact` needs the file with no server
 * on it. None has a running server's admin endpoint to go to, so they live beside the
 * account commands rather than in the shared admin command list. Each prints its JSON
 * report; a failed check also exits 1 with its reasons on stderr.
 */
export function addOperationsCommands(program: Command, print: (result: unknown) => void): void {
  program
    .command('preflight')
    .description(
      'Send a ping task through the io and cpu queues of the new queue system (REDIS_URL); ' +
        'fails when Redis is unreachable, a worker is missing or configuration is incomplete',
    )
    .exitOverride()
    .action(async () => {
      // Loaded on use: Redis clients are no concern of the other commands.
      const { runPreflight } = await import('../operations/preflight/preflight.js');
      const report = await runPreflight(process.env);
      print(report);
      if (!report.ok)
        throw new CliError(`preflight failed: ${report.reasons.join('; ')}`, EXIT.failed);
    });
  program
    .command('database')
    .description('compact')
    .exitOverride()
    .command('compact')
    .description(
      'With the server stopped: rewrite the DuckDB file without the space deleted rows left ' +
        '(jobs past JOB_HISTORY_RETENTION_SECONDS); the former file stays as ' +
        '<file>.before-compact until you delete it',
    )
    .exitOverride()
    .action(async (_options: unknown, self: Command) => {
      const { dataDir } = self.optsWithGlobals<{ dataDir?: string }>();
      const env = dataDir ? { ...process.env, DATA_DIR: dataDir } : process.env;
      const { loadConfig } = await import('../config/app-config.js');
      const { compactDatabase } = await import('../database/database-compaction.js');
      const config = loadConfig(env);
      try {
        print(await compactDatabase(config));
      } catch (error) {
        const locked = asDatabaseLocked(error, config.databaseFile);
        if (!locked) throw error;
        const holder =
          locked.holderPid === null ? 'another process' : `process ${locked.holderPid}`;
        throw new CliError(
          `refusing to compact ${locked.file}: ${holder} holds it (the server?). Nothing was ` +
            'changed; stop the server and run again.',
          EXIT.busy,
        );
      }
    });
  const upgrade = program.command('upgrade').exitOverride();
  upgrade
    .command('check-disable-legacy')
    .description(
      'Ask the running server whether the legacy workers may be disabled: every rollout ' +
        'ratio 1.0 and GET /drain_status drained',
    )
    .requiredOption('--url <baseUrl>', 'base address of the running HTTP process')
    .exitOverride()
    .action(async (options: { url: string }) => {
      const { checkDisableLegacy } = await import('../operations/upgrade/legacy-disable.check.js');
      const check = await checkDisableLegacy(options.url);
      print(check);
      if (!check.allowed)
        throw new CliError(
          `disabling the legacy workers is refused: ${check.reasons.join('; ')}`,
          EXIT.failed,
        );
    });
}
