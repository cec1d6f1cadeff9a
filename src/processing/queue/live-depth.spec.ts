import { describe, expect, it } from '@jest/globals';
import { LiveDepth } from './live-depth.js';
import type { QueueDepth } from './queue-task.js';
import type { QueueName } from '../../config/queue.types.js';

function stored(queue: QueueName, queued: number, running: number): QueueDepth {
  return {
    queue,
    active: queued + running,
    lanes: {
      priority: { queued, running },
      standard: { queued: 0, running: 0 },
      batch: { queued: 0, running: 0 },
    },
  };
}

describe(LiveDepth.name, () => {
  it('follows transitions and is unknown before the first reconcile', () => {
    const sut = new LiveDepth();
    expect(sut.age()).toBe(Infinity);
    sut.add('cpu', 'priority', 1, 0);
    sut.add('cpu', 'priority', -1, 1);
    sut.add('cpu', 'standard', 1, 0);
    expect(sut.depth('cpu')).toMatchObject({ active: 2, lanes: { priority: { running: 1 } } });
  });

  it('adopts the store counts but keeps the transitions made while the store was read', async () => {
    const sut = new LiveDepth();
    sut.add('cpu', 'priority', 5, 0); // drifted: the store holds 2
    const answers: (() => void)[] = [];
    const reading = sut.reconcile(
      (q) => new Promise((resolve) => answers.push(() => resolve(stored(q, 2, 0)))),
    );
    sut.add('cpu', 'priority', 1, 0); // committed after the read began
    for (const answer of answers) answer();
    await reading;
    expect(sut.depth('cpu').lanes.priority).toEqual({ queued: 3, running: 0 });
    expect(sut.age()).toBeLessThan(1000);
  });

  it('never subtracts a finish made during the read twice (errs high, not low)', async () => {
    const sut = new LiveDepth();
    sut.add('cpu', 'priority', 0, 3);
    const answers: (() => void)[] = [];
    const reading = sut.reconcile(
      (q) => new Promise((resolve) => answers.push(() => resolve(stored(q, 0, 2)))),
    );
    // A job finishes while the store is read; the read has already seen it (2 running).
    sut.add('cpu', 'priority', 0, -1);
    for (const answer of answers) answer();
    await reading;
    expect(sut.depth('cpu').lanes.priority).toEqual({ queued: 0, running: 2 });
    // A claim during a read counts its running side; its queued side waits for the next read.
    const claimed = sut.reconcile((q) => {
      sut.add(q, 'priority', -1, 1);
      return Promise.resolve(stored(q, 1, 2));
    });
    await claimed;
    expect(sut.depth('cpu').lanes.priority).toEqual({ queued: 1, running: 3 });
  });

  it('shares one read among reconciles while the store hangs', async () => {
    const sut = new LiveDepth();
    let reads = 0;
    const hung = () => {
      reads++;
      return new Promise<QueueDepth>(() => undefined);
    };
    void sut.reconcile(hung);
    void sut.reconcile(hung);
    expect(reads).toBe(2); // one per queue, once
  });
});
