import { ChildProcess, execFile, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from './usage-kafka.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Compiles `src` as `npm run build` does, into `dist/<name>` so a developer's `dist/` (maybe
 * serving `npm start`) and other specs' builds are untouched. Returns the output directory.
 */
export async function buildDist(name: string): Promise<string> {
  const outDir = path.join(ROOT, 'dist', name);
  await promisify(execFile)(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--outDir', outDir],
    { cwd: ROOT },
  );
  return outDir;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The real server (`node <build>/src/main.js`, i.e. `npm start`) as a child process on `port`. */
export class ChildApp {
  readonly baseUrl: string;
  private child: ChildProcess | null = null;
  private exited: Promise<NodeJS.Signals | number | null> | null = null;
  stderr = '';
  /** The end of the server's log (stdout) since the last start. */
  log = '';

  constructor(
    private readonly buildDir: string,
    readonly port: number,
    readonly env: Record<string, string>,
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`;
  }

  /**
   * Starts the server and waits until /health answers. The port came from `freePort()`, so
   * another process may take it before the server binds it (an outgoing connection drawing
   * the same ephemeral port): a start that fails with EADDRINUSE is tried again on the same
   * port, which such a connection gives back when it ends.
   */
  async start(): Promise<void> {
    // A restart on a machine loaded by other work took over 60 s (load average 45).
    const deadline = Date.now() + 180_000;
    for (;;) {
      const { child, closed } = this.spawnServer();
      const ended = () => child.exitCode !== null || child.signalCode !== null;
      await waitFor(
        `child server on ${this.baseUrl} (stderr: ${this.stderr.slice(-2000)})`,
        async () =>
          ended() ||
          (await fetch(`${this.baseUrl}/health`, { signal: AbortSignal.timeout(10_000) }))
            .status === 200,
        Math.max(deadline - Date.now(), 1_000),
        100,
      );
      if (!ended()) return;
      await closed; // all of its stderr read
      if (!this.stderr.includes('EADDRINUSE') || Date.now() > deadline) {
        throw new Error(`child exited: ${this.stderr.slice(-2000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }

  private spawnServer(): { child: ChildProcess; closed: Promise<void> } {
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
        PORT: String(this.port),
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
    return { child, closed: new Promise((resolve) => child.once('close', () => resolve())) };
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
