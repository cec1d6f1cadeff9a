import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';

// scripts/server.sh, the launcher of `npm start` and the container image, with a stand-in
// `node` first on PATH that reports how it was started instead of starting the server.

const launcher = path.resolve('scripts/server.sh');
/** The entry the launcher names, relative to its own folder (`$(dirname "$0")/..`). */
const main = `${path.dirname(launcher)}/../dist/src/main.js`;
const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-launcher-'));
fs.writeFileSync(
  path.join(bin, 'node'),
  '#!/bin/sh\necho "pid=$$"\necho "arena=${MALLOC_ARENA_MAX:-}"\necho "duckdb=${DUCKDB_JE_MALLOC_CONF-unset}"\necho "options=${NODE_OPTIONS:-}"\nfor a in "$@"; do echo "arg=$a"; done\n',
  { mode: 0o755 },
);

afterAll(() => fs.rmSync(bin, { recursive: true, force: true }));

function launch(env: Record<string, string>, args: string[] = []) {
  const base: Record<string, string> = { PATH: `${bin}${path.delimiter}${process.env.PATH}` };
  const result = spawnSync('sh', ['-c', 'echo "shell=$$"; exec sh "$0" "$@"', launcher, ...args], {
    env: { ...base, ...env },
    encoding: 'utf8',
  });
  expect(result.status).toBe(0);
  const lines = result.stdout.trim().split('\n');
  const value = (key: string) =>
    lines.filter((l) => l.startsWith(`${key}=`)).map((l) => l.slice(key.length + 1));
  return {
    shell: value('shell')[0],
    pid: value('pid')[0],
    arena: value('arena')[0],
    duckdbAllocator: value('duckdb')[0],
    options: value('options')[0],
    args: value('arg'),
  };
}

describe('scripts/server.sh', () => {
  it('starts the compiled server with two malloc arenas, DuckDB returning pages it stopped reusing at once, 4 MB semi-spaces from the start and young-generation collections on the main thread alone, as one process', () => {
    const started = launch({}, ['--extra']);
    expect(started.arena).toBe('2');
    // DuckDB's jemalloc keeps freed pages for its own time, then returns them without the
    // lazily-freed stage that still counts as the process's memory.
    expect(started.duckdbAllocator).toBe('muzzy_decay_ms:0');
    expect(started.options).toBe('');
    expect(started.args).toEqual([
      '--no-parallel-scavenge',
      '--max-semi-space-size=4',
      '--min-semi-space-size=4',
      main,
      '--extra',
    ]);
    // exec all the way: node runs as the process that was started, so signals reach it.
    expect(started.pid).toBe(started.shell);
  });

  it("keeps the operator's own values", () => {
    const started = launch({
      MALLOC_ARENA_MAX: '8',
      DUCKDB_JE_MALLOC_CONF: 'dirty_decay_ms:5000',
      NODE_OPTIONS: '--max-semi-space-size=16',
    });
    expect(started.arena).toBe('8');
    expect(started.duckdbAllocator).toBe('dirty_decay_ms:5000');
    // Set empty: DuckDB's own setting.
    expect(launch({ DUCKDB_JE_MALLOC_CONF: '' }).duckdbAllocator).toBe('');
    expect(started.options).toBe('--max-semi-space-size=16');
    // NODE_OPTIONS cannot carry V8's scavenger flag: the launcher's holds either way.
    expect(started.args).toEqual(['--no-parallel-scavenge', main]);
    // A lower bound of the operator's own: no upper bound of the launcher's to contradict it.
    const fromAStart = launch({ NODE_OPTIONS: '--min-semi-space-size=8' });
    expect(fromAStart.options).toBe('--min-semi-space-size=8');
    expect(fromAStart.args).toEqual(['--no-parallel-scavenge', main]);
  });
});
