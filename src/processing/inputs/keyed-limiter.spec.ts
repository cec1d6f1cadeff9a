import { describe, expect, it } from '@jest/globals';
import { KeyedLimiter } from './keyed-limiter.js';

describe(KeyedLimiter.name, () => {
  it("gives each key its own share: one key's waiting never delays another's", async () => {
    const limiter = new KeyedLimiter(2);
    const a1 = await limiter.acquire('a');
    await limiter.acquire('a');
    let third = false;
    const a3 = limiter.acquire('a').then((release) => {
      third = true;
      return release;
    });
    // Key b is not behind a's queue.
    const b1 = await limiter.acquire('b');
    expect(limiter.load('a')).toEqual({ active: 2, waiting: 1 });
    expect(limiter.load('b')).toEqual({ active: 1, waiting: 0 });
    expect(third).toBe(false);
    a1();
    a1(); // a second release of the same slot changes nothing
    (await a3)();
    expect(third).toBe(true);
    expect(limiter.load('a')).toEqual({ active: 1, waiting: 0 });
    b1();
    expect(limiter.load('b')).toEqual({ active: 0, waiting: 0 });
  });

  it('drops a waiter whose signal aborts, with the signal’s reason', async () => {
    const limiter = new KeyedLimiter(1);
    const held = await limiter.acquire('a');
    const controller = new AbortController();
    const waiting = limiter.acquire('a', controller.signal);
    controller.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    expect(limiter.load('a')).toEqual({ active: 1, waiting: 0 });
    held();
    expect(limiter.load('a')).toEqual({ active: 0, waiting: 0 });
  });
});
