import { ADMIN_COMMAND_SPECS } from '../admin/admin-command-specs.js';
import { describeError, EXIT } from './cli-error.js';
import { connect } from './connect.js';
import { buildProgram, CommanderError } from './program.js';
import { ConfigError } from '../config/config-error.js';
import { addOperationsCommands } from './operations-commands.js';

/**
 * docproc-admin: one admin command per run, JSON result on stdout, one-line error on
 * stderr with a non-zero exit (1 failure, 2 usage, 3 database busy).
 */
async function main(argv: string[]): Promise<number> {
  // The direct path opens the DuckDB file of DATA_DIR: what it creates stays private.
  process.umask(0o077);
  let result: unknown;
  const program = buildProgram(ADMIN_COMMAND_SPECS, async (name, input, globals) => {
    const env = globals.dataDir ? { ...process.env, DATA_DIR: globals.dataDir } : process.env;
    const transport = await connect(env, name);
    try {
      result = await transport.run(name, input);
    } finally {
      await transport.close();
    }
  });
  let printed = false;
  addOperationsCommands(program, (report) => {
    printed = true;
    process.stdout.write(`${JSON.stringify(report)}\n`);
  });
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (error instanceof ConfigError) {
      process.stderr.write(`docproc-admin: ${error.message}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`docproc-admin: ${describeError(error)}\n`);
    return (error as { exitCode?: number }).exitCode ?? EXIT.failed;
  }
  if (!printed) process.stdout.write(`${JSON.stringify(result)}\n`);
  return EXIT.ok;
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`docproc-admin: ${describeError(error)}\n`);
    process.exitCode = EXIT.failed;
  },
);
