import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import type { Readable } from 'node:stream';
import type { OcrLanguageCode } from '../../config/ocr-language-data.js';
import type { DocumentLimits } from '../readers/document-limits.js';
import type { ExecutorMessage, RunMessage } from './executor.child.js';
import type { TaskReply } from './task-reply.js';

/** How an executor process ended, as its parent saw it. */
export interface ExecutorExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** V8 reported reaching its heap ceiling (`--max-old-space-size`) on stderr. */
  heapExhausted: boolean;
}

/** A task's end on an executor: its reply, or the process's exit before it replied. */
export type TaskOutcome =
  { kind: 'reply'; reply: TaskReply<unknown> } | { kind: 'exit'; exit: ExecutorExit };

interface ExecutorSpawnOptions {
  entry: string;
  heapMb: number;
  /** Scheduling niceness (0-19): document work yields the CPU to the server process. */
  nice?: number;
  /** Extra node flags (tests run the TypeScript sources through a loader). */
  execArgv?: string[];
}

const HEAP_LIMIT_MESSAGE = /heap limit|heap out of memory/i;
/** How long an exited executor's stderr may take to reach its end. */
const STDERR_DRAIN_MS = 500;

/** Resolves when `stream` has closed, or after `timeoutMs`, whichever comes first. */
function pipeClosed(stream: Readable | null, timeoutMs: number): Promise<void> {
  if (!stream || stream.closed || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    stream.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * A document that exhausts the heap ceiling makes V8 abort, and an abort writes a core file
 * of the whole heap wherever the system's core pattern points (often the working
 * directory): a hostile file sent again and again would fill the disk. The executor is
 * started through `sh` with a core size limit of 0, then `exec`s Node itself (same pid, the
 * IPC channel inherited). Where there is no POSIX shell, Node is started directly.
 */
function withoutCoreDumps(nodeArgs: string[]): { execPath?: string; execArgv: string[] } {
  if (process.platform === 'win32') return { execArgv: nodeArgs };
  return {
    execPath: '/bin/sh',
    execArgv: ['-c', 'ulimit -c 0 && exec "$0" "$@"', process.execPath, ...nodeArgs],
  };
}

/**
 * glibc's malloc spreads a process's threads over up to 8 arenas per core and gives little of
 * an arena back to the system. OCR starts a thread for each language worker and ends the one
 * before when the language changes (ocr-workers.ts): an executor reading German, Greek and
 * Japanese pages in turn grew about 1.2 MB a page (720 to 755 MB over 40 pages, 779 at most;
 * above EXECUTOR_RECYCLE_RSS_MB, so replaced after most tasks). Two arenas held it flat
 * near 575 MB at the same speed (docs/decisions/0531-*). An operator's own value is kept.
 */
function executorEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' };
}

/**
 * One executor child process, seen from the parent: started with a V8 heap ceiling, ready
 * once it has warmed up, running at most one task at a time. Its stderr is passed through
 * to the parent's, and read for V8's out-of-memory report.
 */
export class ExecutorProcess {
  readonly ready: Promise<void>;
  readonly exited: Promise<ExecutorExit>;
  private readonly child: ChildProcess;
  private pending: { id: number; resolve: (outcome: TaskOutcome) => void } | null = null;
  private exit: ExecutorExit | undefined;
  private nextId = 1;
  private stderrTail = '';
  /** Resident size the executor reported after its last task, bytes. */
  lastRss = 0;
  /** The highest resident size during its last task, bytes (0: not known). */
  lastPeakRss = 0;
  /** Resident size after its last task, before the executor let go of anything, bytes. */
  lastTaskRss = 0;
  /**
   * Set while the executor lets go of what it holds between tasks (it was above the
   * recycle size); resolves once it says how large it rests (`lastRss`), or exits.
   */
  resting: Promise<void> | null = null;
  private rested: (() => void) | null = null;
  idleTimer: NodeJS.Timeout | undefined;

  constructor(options: ExecutorSpawnOptions) {
    const nodeArgs = [...(options.execArgv ?? []), `--max-old-space-size=${options.heapMb}`];
    this.child = fork(options.entry, [], {
      ...withoutCoreDumps(nodeArgs),
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
      env: executorEnvironment(),
    });
    if (options.nice && this.child.pid !== undefined) {
      try {
        os.setPriority(this.child.pid, options.nice);
      } catch {
        // Not permitted here (some containers): the executor runs at the server's priority.
      }
    }
    this.child.stderr?.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4096);
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        clearTimeout(this.idleTimer);
        // Node reports `exit` before the child's stderr is read to its end, so V8's heap-limit
        // message can still be in the pipe: on a busy machine a heap limit then looked like
        // a crash. The pipe is read to its close (bounded) before the exit is judged.
        void pipeClosed(this.child.stderr, STDERR_DRAIN_MS).then(() => {
          this.exit = { code, signal, heapExhausted: HEAP_LIMIT_MESSAGE.test(this.stderrTail) };
          this.settle({ kind: 'exit', exit: this.exit });
          this.endRest();
          resolve(this.exit);
        });
      });
    });
    // A fork that fails outright (no such entry) reports `error`, then `exit`.
    this.child.on('error', () => undefined);
    this.ready = new Promise((resolve, reject) => {
      this.child.on('message', (message: ExecutorMessage<unknown>) => {
        if (message.type === 'ready') resolve();
        else if (message.type === 'rested') {
          this.lastRss = message.rss;
          this.endRest();
        } else if (message.type === 'done' && this.pending?.id === message.id) {
          this.lastRss = message.rss;
          this.lastTaskRss = message.rss;
          this.lastPeakRss = message.peakRss;
          if (message.releasing) {
            this.resting = new Promise((resolve) => (this.rested = resolve));
          }
          this.settle({ kind: 'reply', reply: message.reply });
        }
      });
      void this.exited.then((exit) =>
        reject(new Error(`executor exited while starting (${exit.signal ?? exit.code})`)),
      );
    });
    // Nobody may be waiting on `ready` (an executor that dies while warming up unused).
    this.ready.catch(() => undefined);
  }

  get alive(): boolean {
    return this.exit === undefined;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Sends one task; resolves with its reply, or with the exit of the process. */
  send<T>(
    task: T,
    limits: DocumentLimits | undefined,
    ocrLanguages?: readonly OcrLanguageCode[],
    recycleRssMb?: number,
  ): Promise<TaskOutcome> {
    if (this.exit) return Promise.resolve({ kind: 'exit', exit: this.exit });
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending = { id, resolve };
      this.child.send({
        type: 'run',
        id,
        task,
        limits,
        ocrLanguages,
        recycleRssMb,
      } satisfies RunMessage<T>);
    });
  }

  private endRest(): void {
    const rested = this.rested;
    this.rested = null;
    this.resting = null;
    rested?.();
  }

  private settle(outcome: TaskOutcome): void {
    const pending = this.pending;
    this.pending = null;
    pending?.resolve(outcome);
  }

  /**
   * Resident memory now, bytes: read from /proc, which answers while the executor is busy
   * in native code; elsewhere the size it reported after its last task.
   */
  rss(): number {
    try {
      const status = fs.readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
      const kb = /VmRSS:\s+(\d+)/.exec(status);
      if (kb) return Number(kb[1]) * 1024;
    } catch {
      // not Linux, or the process is gone
    }
    return this.lastRss;
  }

  /** Ends the process at once (SIGKILL: a stuck native call ignores anything milder). */
  kill(): void {
    if (this.alive) this.child.kill('SIGKILL');
  }
}
