// Plain JavaScript (its types in server-process.d.mts), so the benchmarks' .mjs scripts start
// the server the way the specs do.
/* global fetch, AbortSignal */
import { spawn } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { setTimeout as pause } from 'node:timers/promises';
import { startOnFreePort } from './free-port.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TS_REGISTER = path.join(ROOT, 'test/support/ts-register.mjs');

/**
 * The server as its own process on a data directory and a free port (startOnFreePort):
 * `entry` is a build's `src/main.js`, or `src/main.ts` to run it from source (the ts-register
 * hook), relative to the repository or absolute. `env` goes over DATA_DIR, PORT, HOST
 * (loopback) and LOG_LEVEL (warn). Resolves once the process listens; what else it must have
 * done first (`healthy`, its admin endpoint published) is the caller's to wait for.
 */
export async function startServerProcess(entry, dataDir, env = {}, timeoutMs = 60_000) {
  let log = '';
  let stderr = '';
  const source = entry.endsWith('.ts') ? ['--import', TS_REGISTER] : [];
  const { launched, port } = await startOnFreePort(
    'the server',
    (port) => {
      log = '';
      stderr = '';
      const child = spawn(process.execPath, [...source, path.resolve(ROOT, entry)], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          DATA_DIR: dataDir,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.on('data', (chunk) => (log += chunk.toString()));
      child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
      // Who reports a taken port decides where it shows: Node on stderr, the logger on stdout.
      return { child, output: () => stderr + log };
    },
    timeoutMs,
  );
  const { child } = launched;
  const baseUrl = `http://127.0.0.1:${port}`;
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  const answers = () =>
    fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(10_000) }).then(
      (res) => res.ok,
      () => false,
    );
  return {
    child,
    port,
    baseUrl,
    log: () => log,
    stderr: () => stderr,
    async healthy(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!ended() && !(await answers())) {
        if (Date.now() > deadline) {
          throw new Error(`timed out after ${timeoutMs} ms waiting for ${baseUrl}/health`);
        }
        await pause(100);
      }
      if (ended()) throw new Error(`the server exited: ${stderr.slice(-2000)}`);
    },
    async stop() {
      if (ended()) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      await gone;
    },
  };
}
