import path from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import type { AdminCommandOption } from '../admin/admin-command.js';
import type { AdminCommandSpec } from '../admin/admin-command-specs.js';
import { unreadableFileReason } from '../admin/readable-file.js';
import { CliError } from './cli-error.js';

/** Runs one admin command by name with its input; the transport is the caller's business. */
type CommandInvoker = (
  name: string,
  input: Record<string, unknown>,
  globals: { dataDir?: string },
) => Promise<unknown>;

/**
 * The `docproc-admin` command line, generated from the admin command list: `org.create`
 * becomes `docproc-admin org create`, each option a flag filling one input field.
 */
export function buildProgram(
  commands: readonly AdminCommandSpec[],
  invoke: CommandInvoker,
): Command {
  const program = new Command('docproc-admin')
    .description(
      'Administer docproc accounts. Prints JSON on stdout. Talks to the running server of ' +
        'DATA_DIR when there is one, otherwise opens its DuckDB file directly.',
    )
    .option('--data-dir <dir>', 'data directory (default: $DATA_DIR or ./data)')
    .showHelpAfterError()
    .exitOverride();

  const groups = new Map<string, Command>();
  for (const command of commands) {
    const [groupName, actionName] = command.name.split('.');
    let group = groups.get(groupName);
    if (!group) {
      group = program.command(groupName).showHelpAfterError().exitOverride();
      groups.set(groupName, group);
    }
    const sub = group.command(actionName).description(command.description).exitOverride();
    const fields = new Map<string, AdminCommandOption>();
    for (const spec of command.options) {
      const option = new Option(spec.flags, spec.description);
      if (spec.required) option.makeOptionMandatory();
      sub.addOption(option);
      fields.set(option.attributeName(), spec);
    }
    sub.action(async (values: Record<string, unknown>, self: Command) => {
      const input: Record<string, unknown> = {};
      for (const [attribute, spec] of fields) {
        const value = values[attribute];
        if (value === undefined) continue;
        input[spec.field] = spec.path ? readableFile(String(value), spec.flags) : value;
      }
      const globals = self.optsWithGlobals<{ dataDir?: string }>();
      await invoke(command.name, input, { dataDir: globals.dataDir });
    });
  }
  for (const group of groups.values()) {
    group.description(group.commands.map((c) => c.name()).join(', '));
  }
  return program;
}

/**
 * A file option as an absolute path, checked here because in HTTP mode the server opens
 * it and could only answer with a less helpful error.
 */
function readableFile(value: string, flags: string): string {
  const absolute = path.resolve(value);
  const reason = unreadableFileReason(absolute);
  if (reason !== null) {
    throw new CliError(`${flags.split(' ')[0]}: cannot read ${absolute}: ${reason}`);
  }
  return absolute;
}

export { CommanderError };
