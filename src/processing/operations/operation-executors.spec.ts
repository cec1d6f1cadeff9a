import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../config/app-config.js';
import { executorCountOf } from './operation-executors.js';

describe('executorCountOf', () => {
  it('gives every cpu loop of the database queue an executor of its own', () => {
    expect(executorCountOf(loadConfig({ CPU_WORKER_CONCURRENCY: '2' }))).toBe(2);
    // A priority worker's loop no longer waits for the `worker` loops' executors.
    expect(
      executorCountOf(loadConfig({ CPU_WORKER_CONCURRENCY: '2', WORKER_PRIORITY_COUNT: '1' })),
    ).toBe(3);
    expect(
      executorCountOf(
        loadConfig({
          CPU_WORKER_CONCURRENCY: '2',
          WORKER_PRIORITY_COUNT: '1',
          GPU_WORKER_ENABLED: 'true',
          GPU_WORKER_CONCURRENCY: '2',
        }),
      ),
    ).toBe(5);
  });

  it('keeps CPU_WORKER_CONCURRENCY executors when the `worker` kind is off', () => {
    expect(
      executorCountOf(
        loadConfig({
          CPU_WORKER_CONCURRENCY: '3',
          WORKER_ENABLED: 'false',
          WORKER_PRIORITY_COUNT: '1',
        }),
      ),
    ).toBe(3);
  });
});
