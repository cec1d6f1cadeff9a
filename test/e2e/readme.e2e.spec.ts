import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { startOnFreePort } from '../support/free-port.mjs';
import { waitFor } from '../support/usage-kafka.js';

/**
 * The README runs as written: its marked shell blocks, top to bottom, in one shell with
 * `set -e -o pipefail`, against a fresh DATA_DIR and a server started by the README's own
 * command. Markers (an HTML comment before the block):
 *   <!-- readme-test: server -->  started in the background; the suite waits for /health
 *   <!-- readme-test: run -->     run in order, in one shell
 * The only changes made to the text: `localhost:3000` becomes the test's free port, `/tmp/`
 * a directory of this run (other runs on the machine write theirs), and `npm ci` is a no-op (the suite itself runs after `npm ci`; running it again would replace
 * the node_modules under the running tests).
 */
jest.setTimeout(15 * 60_000);

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Block {
  kind: 'server' | 'run';
  code: string;
}

function markedBlocks(markdown: string): Block[] {
  const pattern = /<!-- readme-test: (server|run) -->\s*\n```sh\n([\s\S]*?)\n```/g;
  return [...markdown.matchAll(pattern)].map((m) => ({
    kind: m[1] as Block['kind'],
    code: m[2],
  }));
}

function bash(script: string, env: NodeJS.ProcessEnv, detached = false): ChildProcess {
  return spawn('bash', ['-c', script], { cwd: ROOT, env, detached, stdio: 'pipe' });
}

describe('README', () => {
  const blocks = markedBlocks(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-readme-'));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-readme-tmp-'));
  let server: ChildProcess | null = null;
  let serverLog = '';

  afterAll(async () => {
    if (server?.pid) {
      const running = server.exitCode === null && server.signalCode === null;
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      try {
        process.kill(-server.pid, 'SIGTERM'); // npm, its shell and the server: one group
      } catch {
        // the whole group has already ended
      }
      if (running) await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('marks one server block and the set-up and demo blocks', () => {
    expect(blocks.filter((b) => b.kind === 'server')).toHaveLength(1);
    expect(blocks.filter((b) => b.kind === 'run').length).toBeGreaterThanOrEqual(4);
  });

  it('runs every marked block top to bottom against a fresh DATA_DIR', async () => {
    const local = (port: number, code: string) =>
      code.replaceAll('localhost:3000', `127.0.0.1:${port}`).replaceAll('/tmp/', `${scratch}/`);
    const envOn = (port: number) => ({
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
    });

    const serverBlock = blocks.find((b) => b.kind === 'server')!;
    // The first start compiles when dist/ is older than the sources.
    const { port } = await startOnFreePort(
      "the README's server",
      (port) => {
        serverLog = '';
        const record = (chunk: Buffer) => (serverLog = (serverLog + chunk).slice(-8000));
        const started = bash(
          `npm() { if [ "$1" = ci ]; then return 0; fi; command npm "$@"; }\n${local(port, serverBlock.code)}`,
          envOn(port),
          true,
        );
        started.stdout!.on('data', record);
        started.stderr!.on('data', record);
        server = started;
        return { child: started, output: () => serverLog };
      },
      10 * 60_000,
    );
    await waitFor(
      `the README's server on port ${port}`,
      async () => {
        if (server!.exitCode !== null) throw new Error(`server exited: ${serverLog}`);
        return (await fetch(`http://127.0.0.1:${port}/health`)).ok;
      },
      60_000,
      250,
    );
    const env = envOn(port);

    const script = [
      'set -e -o pipefail',
      ...blocks.filter((b) => b.kind === 'run').map((b) => b.code),
    ]
      .map((code) => local(port, code))
      .join('\n');
    const demo = bash(script, env);
    let output = '';
    demo.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    demo.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => demo.once('exit', resolve));
    if (code !== 0) throw new Error(`README blocks failed (exit ${code}):\n${output.slice(-6000)}`);

    // What the README's comments promise, so a block that quietly does nothing fails too.
    expect(output).toMatch(/"accepted":20000/);
    expect(output).toMatch(/"duplicates":20000/);
    expect(output).toMatch(/refused: identifier-like/);
    expect(output).toMatch(/^Completed$/m);
    const csv = fs.readFileSync(path.join(scratch, 'usage.csv'), 'utf8').trim().split('\n');
    expect(csv.length).toBeGreaterThan(1);
  });
});
