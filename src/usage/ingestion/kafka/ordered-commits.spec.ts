import { describe, expect, it, jest } from '@jest/globals';
import { OrderedCommits } from './ordered-commits.js';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('OrderedCommits', () => {
  it("runs a partition's follow-ups in batch order even when a later write finishes first", async () => {
    const commits = new OrderedCommits(100, jest.fn());
    const done: string[] = [];
    const first = deferred();
    const second = deferred();
    commits.add(0, 1, first.promise, async () => void done.push('p0 b1'));
    commits.add(0, 1, second.promise, async () => void done.push('p0 b2'));
    commits.add(1, 1, Promise.resolve(), async () => void done.push('p1 b1'));
    second.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toEqual(['p1 b1']);
    first.resolve();
    await commits.settled();
    expect(done).toEqual(['p1 b1', 'p0 b1', 'p0 b2']);
    expect(commits.pending).toBe(0);
  });

  it('never runs the follow-ups after a failed batch and reports the failure once', async () => {
    const onFailure = jest.fn();
    const commits = new OrderedCommits(100, onFailure);
    const done: string[] = [];
    commits.add(0, 1, Promise.reject(new Error('write failed')), async () => void done.push('b1'));
    commits.add(0, 1, Promise.resolve(), async () => void done.push('b2'));
    commits.add(1, 1, Promise.resolve(), async () => {
      throw new Error('dead letters not acknowledged');
    });
    await commits.settled();
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toEqual([]);
    expect(onFailure).toHaveBeenCalledTimes(1);
  });

  it('holds callers in room() while more events than the bound are uncommitted', async () => {
    const commits = new OrderedCommits(10, jest.fn());
    const write = deferred();
    commits.add(0, 8, write.promise, async () => undefined);
    commits.add(1, 8, new Promise(() => undefined), async () => undefined);
    let roomy = false;
    const waiting = commits.room().then(() => (roomy = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(roomy).toBe(false);
    write.resolve();
    await waiting;
    expect(commits.pending).toBeLessThanOrEqual(10);
  });
});
