// The real executor processes of the operation specs: the operation worker run from the
// TypeScript sources (jest's transform does not reach child processes), one at a time.
import path from 'node:path';
import {
  OperationPool,
  type OperationPoolOptions,
} from '../../src/documents/executors/operation.pool.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The layout model a task runs without a pin (its `versions.layout`). */
export const DEFAULT_LAYOUT = {
  family: 'layout_model',
  version: 'layout-v3',
  engine: 'line-blocks',
  stage: 'default',
  pinned: false,
  frozenSnapshot: false,
} as const;

/** An operation pool of one real executor process; `options` add to or replace that. */
export function executorPool(options: OperationPoolOptions = {}): OperationPool {
  return new OperationPool({
    inline: false,
    maxExecutors: 1,
    entry: path.join(ROOT, 'src/documents/executors/operation.worker.ts'),
    execArgv: ['--import', path.join(ROOT, 'test/support/ts-register.mjs')],
    ...options,
  });
}
