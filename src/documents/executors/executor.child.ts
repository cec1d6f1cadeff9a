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
}

/** Executor -> parent: started (after warm-up), or a task's reply and the resident size after it. */
export type ExecutorMessage<R> =
  { type: 'ready' } | { type: 'done'; id: number; reply: TaskReply<R>; rss: number };

/**
 * The body of an executor process (`child_process.fork` of an entry such as
 * operation.worker.ts): warms up, says `ready`, then runs one task at a time as the parent
 * sends them. Document errors travel back as data; anything that kills the process (a
 * native abort, the heap ceiling) is seen by the parent as the process's exit.
 */
export function serveTasks<T, R>(
  work: (task: T) => Promise<R>,
  warmUp?: () => Promise<void>,
): void {
  const send = process.send?.bind(process);
  if (!send) throw new Error('an executor runs as a forked child process');
  process.on('message', (message: RunMessage<T>) => {
    if (message?.type !== 'run') return;
    setDocumentLimits(message.limits);
    setOcrLanguages(message.ocrLanguages);
    void work(message.task)
      .then(
        (result): TaskReply<R> => ({ ok: true, result }),
        (error: unknown): TaskReply<R> => ({ ok: false, error: serializeError(error) }),
      )
      .then((reply) => {
        send({
          type: 'done',
          id: message.id,
          reply,
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
