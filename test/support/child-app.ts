import { ChildProcess, execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { startOnFreePort } from './free-port.mjs';
import { waitFor } from './wait.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Compiles `src` as `npm run build` does, into `dist/<name>` so a developer's `dist/` (maybe
 * serving `npm start`) and other specs' builds are untouched. Returns the output directory.
 */
export async function buildDist(name: string): Promise<string> {
  const outDir = path.join(ROOT, 'dist', name);
  try {
    await promisify(execFile)(
      process.execPath,
      ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--outDir', outDir],
      { cwd: ROOT },
    );
  } catch (error) {
    // tsc writes its diagnostics to stdout, which the error's message leaves out.
    throw new Error(`tsc failed: ${String((error as { stdout?: unknown }).stdout ?? error)}`, {
      cause: error,
    });
  }
  return outDir;
}

/** The real server (`node <build>/src/main.js`, i.e. `npm start`) as a child process. */
export class ChildApp {
  private child: ChildProcess | null = null;
  private exited: Promise<NodeJS.Signals | number | null> | null = null;
  private listeningPort: number | null = null;
  stderr = '';
  /** The end of the server's log (stdout) since the last start. */
  log = '';

  constructor(
    private readonly buildDir: string,
    readonly env: Record<string, string>,
  ) {}

  /** The port of the last start: each start takes a free one (startOnFreePort). */
  get port(): number {
    if (this.listeningPort === null) throw new Error('the server was not started');
    return this.listeningPort;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the server on a free port and waits until /health answers. */
  async start(): Promise<void> {
    // A restart on a machine loaded by other work took over 60 s (load average 45).
    const deadline = Date.now() + 180_000;
    const { launched, port } = await startOnFreePort(
      'the child server',
      (port) => this.spawnServer(port),
      180_000,
    );
    this.listeningPort = port;
    const { child } = launched;
    const ended = () => child.exitCode !== null || child.signalCode !== null;
    await waitFor(
      `child server on ${this.baseUrl} (stderr: ${this.stderr.slice(-2000)})`,
      async () =>
        ended() ||
        (await fetch(`${this.baseUrl}/health`, { signal: AbortSignal.timeout(10_000) })).status ===
          200,
      Math.max(deadline - Date.now(), 1_000),
      100,
    );
    if (ended()) throw new Error(`child exited: ${this.stderr.slice(-2000)}`);
  }

  private spawnServer(port: number): { child: ChildProcess; output: () => string } {
    this.stderr = '';
    this.log = '';
    const child = spawn(process.execPath, [path.join(this.buildDir, 'src', 'main.js')], {
      cwd: ROOT,
      // Without jest's marker: the server runs document work in executor processes, as
      // `npm start` does (TaskPool runs it inline when JEST_WORKER_ID is set).
      env: {
        ...process.env,
        JEST_WORKER_ID: '',
        ...this.env,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      this.log = (this.log + chunk.toString('utf8')).slice(-20_000);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-20_000);
    });
    this.child = child;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve(signal ?? code)),
    );
    return { child, output: () => this.stderr };
  }

  /** The server's process id while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Waits (at most `timeoutMs`) for the process to exit by itself: its exit code or signal. */
  async waitForExit(timeoutMs: number): Promise<NodeJS.Signals | number | null> {
    if (!this.child || !this.exited) return null;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the server did not exit within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      const result = await Promise.race([this.exited, timeout]);
      this.child = null;
      return result;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sends `signal` without waiting for anything (SIGSTOP freezes the server, SIGCONT thaws it). */
  signal(signal: NodeJS.Signals): void {
    if (!this.child || this.child.exitCode !== null) throw new Error('the server is not running');
    this.child.kill(signal);
  }

  /** Sends `signal` and waits until the process is gone. */
  async stop(signal: NodeJS.Signals): Promise<NodeJS.Signals | number | null> {
    if (!this.child || !this.exited) return null;
    this.child.kill(signal);
    const result = await this.exited;
    this.child = null;
    return result;
  }

  async metric(line: RegExp): Promise<number> {
    if (this.child && this.child.exitCode !== null) {
      throw new Error(`child exited with ${this.child.exitCode}: ${this.stderr.slice(-3000)}`);
    }
    const text = await (await fetch(`${this.baseUrl}/metrics`)).text();
    const match = line.exec(text);
    return match ? Number(match[1]) : 0;
  }
}
