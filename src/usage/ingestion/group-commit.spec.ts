import { describe, expect, it } from '@jest/globals';
import { GroupCommit } from './group-commit.js';

/** A write that records its groups and completes when the test says so. */
function controlledWrite(fail: (group: number[]) => boolean = () => false) {
  const calls: number[][][] = [];
  const releases: (() => void)[] = [];
  const write = (groups: number[][]) => {
    calls.push(groups);
    return new Promise<number[]>((resolve, reject) => {
      releases.push(() =>
        groups.some(fail)
          ? reject(new Error(`bad group in ${JSON.stringify(groups)}`))
          : resolve(groups.map((g) => g.reduce((a, b) => a + b, 0))),
      );
    });
  };
  const releaseAll = async () => {
    while (releases.length > 0) {
      releases.shift()!();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { calls, write, releaseAll };
}

describe(GroupCommit.name, () => {
  it('writes a lone submission at once', async () => {
    const w = controlledWrite();
    const commit = new GroupCommit(w.write, 100);
    const result = commit.submit([1, 2]);
    expect(w.calls).toEqual([[[1, 2]]]);
    await w.releaseAll();
    await expect(result).resolves.toBe(3);
  });

  it('merges what arrives during a write into the next one, each caller getting its own result', async () => {
    const w = controlledWrite();
    const commit = new GroupCommit(w.write, 100);
    const first = commit.submit([1]);
    const second = commit.submit([2, 3]);
    const third = commit.submit([4]);
    await w.releaseAll();
    expect(w.calls).toEqual([[[1]], [[2, 3], [4]]]);
    await expect(Promise.all([first, second, third])).resolves.toEqual([1, 5, 4]);
  });

  it('keeps a merged write under the item limit, but never splits a submission', async () => {
    const w = controlledWrite();
    const commit = new GroupCommit(w.write, 3);
    const results = [
      commit.submit([1]),
      commit.submit([1, 1]),
      commit.submit([1]),
      commit.submit([1, 1, 1, 1]),
    ];
    await w.releaseAll();
    expect(w.calls.map((groups) => groups.map((g) => g.length))).toEqual([[1], [2, 1], [4]]);
    await expect(Promise.all(results)).resolves.toEqual([1, 2, 1, 4]);
  });

  it('retries the groups of a failed merged write one by one, so only the bad one fails', async () => {
    const w = controlledWrite((group) => group.includes(-1));
    const commit = new GroupCommit(w.write, 100);
    const first = commit.submit([1]);
    const good = commit.submit([2]);
    const bad = commit.submit([-1]);
    const settled = Promise.allSettled([first, good, bad]);
    await w.releaseAll();
    const [a, b, c] = await settled;
    expect(a).toEqual({ status: 'fulfilled', value: 1 });
    expect(b).toEqual({ status: 'fulfilled', value: 2 });
    expect(c.status).toBe('rejected');
    expect(w.calls).toEqual([[[1]], [[2], [-1]], [[2]], [[-1]]]);
  });

  it('keeps working after a failure', async () => {
    const w = controlledWrite((group) => group.includes(-1));
    const commit = new GroupCommit(w.write, 100);
    const bad = commit.submit([-1]);
    const badSettled = bad.catch((e: unknown) => e);
    await w.releaseAll();
    expect(await badSettled).toBeInstanceOf(Error);
    const later = commit.submit([5]);
    await w.releaseAll();
    await expect(later).resolves.toBe(5);
  });
});
