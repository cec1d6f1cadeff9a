import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import type { AdminCommandSpec } from '../admin/admin-command-specs.js';
import { CliError } from './cli-error.js';
import { buildProgram, CommanderError } from './program.js';

const commands: AdminCommandSpec[] = [
  {
    name: 'thing.do',
    description: 'does a thing',
    options: [
      { flags: '--org <orgId>', field: 'orgId', description: 'org', required: true },
      { flags: '--file <file>', field: 'file', description: 'a file', path: true },
      { flags: '--label <label>', field: 'label', description: 'optional label' },
    ],
  },
];

function parse(args: string[]) {
  const calls: { name: string; input: Record<string, unknown>; dataDir?: string }[] = [];
  const program = buildProgram(commands, async (name, input, globals) => {
    calls.push({ name, input, dataDir: globals.dataDir });
  });
  program.configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  return { calls, run: program.parseAsync(['node', 'docproc-admin', ...args]) };
}

describe(buildProgram.name, () => {
  it('maps group/action and flags onto the command name and input fields', async () => {
    const { calls, run } = parse(['--data-dir', '/d', 'thing', 'do', '--org', 'org_1']);
    await run;
    expect(calls).toEqual([{ name: 'thing.do', input: { orgId: 'org_1' }, dataDir: '/d' }]);
  });

  it('turns a relative file option into an absolute path the server can open', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-cli-unit-'));
    fs.writeFileSync(path.join(dir, 'events.ndjson'), '');
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const { calls, run } = parse(['thing', 'do', '--org', 'o', '--file', 'events.ndjson']);
      await run;
      expect(calls[0].input.file).toBe(path.join(fs.realpathSync(dir), 'events.ndjson'));
    } finally {
      process.chdir(cwd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an unreadable file before sending anything', async () => {
    const { calls, run } = parse(['thing', 'do', '--org', 'o', '--file', '/no/such/file']);
    await expect(run).rejects.toThrow(CliError);
    await expect(run).rejects.toThrow(/--file: cannot read \/no\/such\/file/);
    expect(calls).toEqual([]);
  });

  it('throws a usage error for a missing required option', async () => {
    const { calls, run } = parse(['thing', 'do']);
    await expect(run).rejects.toThrow(CommanderError);
    expect(calls).toEqual([]);
  });
});
