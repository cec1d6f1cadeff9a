import fs from 'node:fs';
import type { OcrLanguageCode } from '../../config/ocr-language-data.js';
import { setDocumentLimits, type DocumentLimits } from '../readers/document-limits.js';
import { setOcrLanguages } from '../readers/ocr-languages.js';
import { serializeError, type TaskReply } from './task-reply.js';

/** Parent -> executor. */
export interface RunMessage<T> {
  type: 'run';
  id: number;
  task: T;
  limits?: DocumentLimits;
  /** OCR_LANGUAGES (undefined: every bundled language). */
  ocrLanguages?: readonly OcrLanguageCode[];
  /** EXECUTOR_RECYCLE_RSS_MB: above it after the task, what can be let go is (`release`). */
  recycleRssMb?: number;
}

/**
 * Executor -> parent: started (after warm-up); a task's reply, the resident size after it
 * and the highest resident size during it (`peakRss`, 0 where the system does not say);
 * when `releasing`, a `rested` message follows with the resident size once what the
 * executor holds between tasks was let go.
 */
export type ExecutorMessage<R> =
  | { type: 'ready' }
  | {
      type: 'done';
      id: number;
      reply: TaskReply<R>;
      rss: number;
      peakRss: number;
      releasing: boolean;
    }
  | { type: 'rested'; id: number; rss: number };

/** How long a released executor's resident size may take to fall below the recycle size. */
const RELEASE_SETTLE_MS = 500;
const RELEASE_LOOK_MS = 20;
const MB = 1024 * 1024;

/**
 * The kernel's high-water mark of this process's resident size (VmHWM), bytes; 0 where
 * /proc does not give it. Reset before each task (`resetPeakRss`), it is the task's own peak:
 * the figure that says how near a document takes an executor to EXECUTOR_RSS_LIMIT_MB.
 */
function peakRss(): number {
  try {
    const kb = /VmHWM:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return kb ? Number(kb[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Starts the high-water mark again from the current resident size (Linux: clear_refs 5). */
function resetPeakRss(): void {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux, or not permitted: the peak then runs from the process's start.
  }
}

/**
 * The body of an executor process (`child_process.fork` of an entry such as
 * operation.worker.ts): warms up, says `ready`, then runs one task at a time as the parent
 * sends them. Document errors travel back as data; anything that kills the process (a
 * native abort, the heap ceiling) is seen by the parent as the process's exit. An executor
 * above the recycle size after a task first lets go of what `release` ends (OCR's workers,
 * which start again on the next page that needs them): kept, with its loaded models, when
 * that brings it back below, rather than replaced whole.
 */
export function serveTasks<T, R>(
  work: (task: T) => Promise<R>,
  warmUp?: () => Promise<void>,
  release?: () => Promise<void>,
): void {
  const send = process.send?.bind(process);
  if (!send) throw new Error('an executor runs as a forked child process');
  process.on('message', (message: RunMessage<T>) => {
    if (message?.type !== 'run') return;
    setDocumentLimits(message.limits);
    setOcrLanguages(message.ocrLanguages);
    resetPeakRss();
    void work(message.task)
      .then(
        (result): TaskReply<R> => ({ ok: true, result }),
        (error: unknown): TaskReply<R> => ({ ok: false, error: serializeError(error) }),
      )
      .then(async (reply) => {
        const rss = process.memoryUsage.rss();
        const bound = message.recycleRssMb === undefined ? Infinity : message.recycleRssMb * MB;
        const releasing = release !== undefined && rss > bound;
        // The reply first: the caller's answer never waits for the release.
        send({
          type: 'done',
          id: message.id,
          reply,
          rss,
          peakRss: peakRss(),
          releasing,
        } satisfies ExecutorMessage<R>);
        if (!releasing) return;
        await release().catch(() => undefined);
        // Ended threads give their memory back a moment after they are told to end.
        const settleBy = Date.now() + RELEASE_SETTLE_MS;
        while (process.memoryUsage.rss() > bound && Date.now() < settleBy) {
          await new Promise((resolve) => setTimeout(resolve, RELEASE_LOOK_MS));
        }
        send({
          type: 'rested',
          id: message.id,
          rss: process.memoryUsage.rss(),
        } satisfies ExecutorMessage<R>);
      });
  });
  // The parent going away (crash, SIGKILL) must not leave executors behind.
  process.on('disconnect', () => process.exit(0));
  // A failed warm-up only costs the first task its speed.
  void (warmUp?.() ?? Promise.resolve())
    .catch(() => undefined)
    .then(() => send({ type: 'ready' } satisfies ExecutorMessage<R>));
}
