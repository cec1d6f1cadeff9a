// An executor entry for the pool's specs: tasks that behave as hostile documents do (crash
// the process, hang in synchronous code, grow without bound), run as a real child process.
import fs from 'node:fs';
import { serveTasks } from '../../src/documents/executors/executor.child.js';

export type TestTask =
  | { kind: 'echo'; value: string }
  | { kind: 'abort' }
  | { kind: 'abort-once'; marker: string }
  | { kind: 'hang' }
  | { kind: 'grow-native' }
  | { kind: 'grow-heap' }
  | { kind: 'pid' }
  /** Runs until the file `marker` exists (work the spec ends), then its pid. */
  | { kind: 'until'; marker: string }
  /**
   * Touches `mb` MB of native memory it keeps (resident after the task), then its pid;
   * `releasable`: let go of when the executor is above its recycle size after the task.
   */
  | { kind: 'keep-native'; mb: number; releasable?: boolean };

const hold: unknown[] = [];
const releasable: Buffer[] = [];

serveTasks(
  async (task: TestTask) => {
    switch (task.kind) {
      case 'echo':
        return task.value;
      case 'pid':
        return process.pid;
      case 'until':
        while (!fs.existsSync(task.marker)) await new Promise((resolve) => setTimeout(resolve, 10));
        return process.pid;
      case 'keep-native':
        (task.releasable ? releasable : hold).push(Buffer.alloc(task.mb * 1024 * 1024, 1));
        return process.pid;
      case 'abort':
        process.abort();
        break;
      case 'abort-once':
        if (!fs.existsSync(task.marker)) {
          fs.writeFileSync(task.marker, '');
          process.abort();
        }
        return 'second attempt';
      case 'hang':
        for (;;); // a stuck synchronous loop, as a quadratic regex is
      case 'grow-native':
        for (;;) {
          hold.push(Buffer.alloc(16 * 1024 * 1024, 1));
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      case 'grow-heap':
        for (;;) hold.push(new Array(1_000_000).fill({ a: hold.length }));
    }
    return null;
  },
  undefined,
  async () => {
    releasable.length = 0;
    // The spec's executors run with --expose-gc: the buffers' memory goes back at once.
    (globalThis as { gc?: () => void }).gc?.();
  },
);
