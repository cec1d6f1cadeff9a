import { createHook } from 'node:async_hooks';
import { ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { startOnFreePort } from './free-port.mjs';
import { waitFor } from './wait.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const register = path.join(repoRoot, 'test/support/ts-register.mjs');

/** `waitFor` with the arguments in the order the operations specs use. */
export function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  return waitFor(what, check, timeoutMs, 50);
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

export interface ChildRun {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** A docproc entry point (`src/worker.ts`, `src/cli.ts`) as a child process, from source. */
export function spawnSource(entry: string, args: string[], env: Record<string, string>): ChildRun {
  const child = spawn(
    process.execPath,
    ['--import', register, path.join(repoRoot, entry), ...args],
    {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGCONT');
        child.kill('SIGTERM');
      }
      await exited(child);
    },
  };
}

/** A new-queue worker process (`npm run start:worker` from source), ready once it logs so. */
export async function startWorkerProcess(env: Record<string, string>): Promise<ChildRun> {
  const run = spawnSource('src/worker.ts', [], env);
  await until(
    () =>
      run.output().includes('new-queue worker serving cpu and io') || run.child.exitCode !== null,
    'the worker process to start',
    60_000,
  );
  if (run.child.exitCode !== null) throw new Error(`worker exited: ${run.output()}`);
  return run;
}

/** Runs a command to completion: exit code and combined output. */
export function runCommand(
  file: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', ...env }, timeout: timeoutMs },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** `docproc-admin <args>` from source. */
export function runAdmin(args: string[], env: Record<string, string>) {
  return runCommand(
    process.execPath,
    ['--import', register, path.join(repoRoot, 'src/cli.ts'), ...args],
    env,
  );
}

export function runLivenessProbe(env: Record<string, string>) {
  return runCommand('sh', [path.join(repoRoot, 'scripts/worker-liveness.sh')], env, 10_000);
}

/** A redis-server on `port`, with its output kept for start-up errors. */
function launchRedisServer(port: number, dir: string) {
  let output = '';
  const child = spawn(
    'redis-server',
    [
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const record = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000));
  child.stdout.on('data', record);
  child.stderr.on('data', record);
  return { child, output: () => output };
}

/** A redis-server on a free port (startOnFreePort). */
async function spawnRedisServer(dir: string): Promise<{ child: ChildProcess; port: number }> {
  const { launched, port } = await startOnFreePort(
    'redis-server',
    (port) => launchRedisServer(port, dir),
    60_000,
  );
  return { child: launched.child, port };
}

/** A private redis-server (not the shared test one) that specs may pause, restart or stop. */
export interface PrivateRedis {
  url: string;
  pause(): void;
  resume(): void;
  /** Ends the server (SIGTERM) and starts a new, empty one on the same port when it is back. */
  restart(): Promise<{ back(): Promise<void> }>;
  stop(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-redis-'));
  const spawned = await spawnRedisServer(dir);
  let child = spawned.child;
  const port = spawned.port;
  const url = `redis://127.0.0.1:${port}`;
  const end = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      await exited(child);
    }
  };
  return {
    url,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    async restart() {
      await end();
      return {
        async back() {
          const launched = launchRedisServer(port, dir);
          child = launched.child;
          const deadline = Date.now() + 30_000;
          while (!launched.output().includes('Ready to accept connections')) {
            if (child.exitCode !== null || Date.now() > deadline) {
              throw new Error(`redis-server did not start again on ${port}: ${launched.output()}`);
            }
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        },
      };
    },
    async stop() {
      await end();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Log entries this process writes through Nest's Logger (pino behind it), as
 * `{ ...fields, msg }`: pino itself writes to fd 1 outside jest's reach.
 */
export function recordLogs(): { entries: Record<string, unknown>[]; restore(): void } {
  const entries: Record<string, unknown>[] = [];
  const spies = (['log', 'warn', 'error'] as const).map((level) =>
    jest.spyOn(Logger.prototype, level).mockImplementation(function (
      this: Logger,
      ...args: unknown[]
    ) {
      const [first, second] = args;
      if (typeof first === 'object' && first !== null)
        entries.push({ level, ...(first as Record<string, unknown>), msg: second });
      else entries.push({ level, msg: first });
    }),
  );
  return { entries, restore: () => spies.forEach((s) => s.mockRestore()) };
}

/**
 * Records the timers created from now on, so a spec can tell which are still pending and
 * keep the process alive (the handles jest reports as open), with where they were created.
 */
export function trackTimers(): {
  keepingAlive(createdBy: RegExp): string[];
  stop(): void;
} {
  const live = new Map<number, { timer: NodeJS.Timeout; stack: string }>();
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (type === 'Timeout')
        live.set(id, { timer: resource as NodeJS.Timeout, stack: new Error().stack ?? '' });
    },
    destroy(id) {
      live.delete(id);
    },
  }).enable();
  return {
    // Node reports a cleared timer's destroy asynchronously: poll this (`waitFor`) rather than
    // trusting one read right after the timers were cleared.
    keepingAlive(createdBy) {
      return [...live.values()]
        .filter(({ timer, stack }) => timer.hasRef() && createdBy.test(stack))
        .map(({ stack }) => stack);
    },
    stop: () => hook.disable(),
  };
}
