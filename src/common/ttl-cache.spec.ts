import { describe, expect, it, jest } from '@jest/globals';
import { TtlCache } from './ttl-cache.js';

describe(TtlCache.name, () => {
  it('returns entries until their TTL passes', () => {
    let now = 1000;
    const sut = new TtlCache<string>(50, 10, () => now);
    sut.set('pk_a', 'A');
    now = 1049;
    expect(sut.get('pk_a')).toBe('A');
    now = 1050;
    expect(sut.get('pk_a')).toBeUndefined();
  });

  it('evicts the oldest entry beyond its capacity', () => {
    const sut = new TtlCache<number>(60_000, 2);
    sut.set('a', 1);
    sut.set('b', 2);
    sut.set('c', 3);
    expect([sut.get('a'), sut.get('b'), sut.get('c')]).toEqual([undefined, 2, 3]);
  });

  it('forgets a deleted entry', () => {
    const sut = new TtlCache<number>(60_000, 2);
    sut.set('a', 1);
    sut.delete('a');
    expect(sut.get('a')).toBeUndefined();
  });

  describe('read again ahead of expiry', () => {
    /** A cache of 100 ms entries on a clock the test moves, and a reload it settles. */
    function setup() {
      let now = 1000;
      const sut = new TtlCache<string>(100, 10, () => now);
      let settle!: (value: string | undefined) => void;
      let fail!: (error: Error) => void;
      const reload = jest.fn(
        () =>
          new Promise<string | undefined>((resolve, reject) => {
            settle = resolve;
            fail = reject;
          }),
      );
      const flush = () => new Promise((resolve) => setImmediate(resolve));
      return {
        sut,
        reload,
        flush,
        settle: (value: string | undefined) => settle(value),
        fail: (error: Error) => fail(error),
        at: (ms: number) => (now = ms),
      };
    }

    it('answers from the entry while reading it again once, past half its TTL', async () => {
      const { sut, reload, flush, settle, at } = setup();
      sut.set('k', 'old');
      at(1049);
      expect(sut.get('k', reload)).toBe('old');
      expect(reload).not.toHaveBeenCalled();
      at(1050);
      expect(sut.get('k', reload)).toBe('old');
      expect(sut.get('k', reload)).toBe('old');
      expect(reload).toHaveBeenCalledTimes(1);
      at(1060);
      settle('new');
      await flush();
      // The reloaded value lives a whole TTL from its read.
      at(1159);
      expect(sut.get('k')).toBe('new');
      at(1160);
      expect(sut.get('k')).toBeUndefined();
    });

    it('drops the entry when the reload finds nothing', async () => {
      const { sut, reload, flush, settle, at } = setup();
      sut.set('k', 'old');
      at(1070);
      expect(sut.get('k', reload)).toBe('old');
      settle(undefined);
      await flush();
      expect(sut.get('k')).toBeUndefined();
    });

    it('keeps a change made during the reload over the older read', async () => {
      const { sut, reload, flush, settle, at } = setup();
      sut.set('k', 'old');
      at(1070);
      sut.get('k', reload);
      sut.set('k', 'changed');
      settle('read before the change');
      await flush();
      expect(sut.get('k')).toBe('changed');
      sut.get('k', reload);
      expect(reload).toHaveBeenCalledTimes(1);
    });

    it('does not bring back an entry deleted during the reload', async () => {
      const { sut, reload, flush, settle, at } = setup();
      sut.set('k', 'old');
      at(1070);
      sut.get('k', reload);
      sut.delete('k');
      settle('read before the delete');
      await flush();
      expect(sut.get('k')).toBeUndefined();
    });

    it('leaves the entry to expire when the reload fails, without another attempt', async () => {
      const { sut, reload, flush, fail, at } = setup();
      sut.set('k', 'old');
      at(1070);
      sut.get('k', reload);
      fail(new Error('store unavailable'));
      await flush();
      at(1099);
      expect(sut.get('k', reload)).toBe('old');
      expect(reload).toHaveBeenCalledTimes(1);
      at(1100);
      expect(sut.get('k', reload)).toBeUndefined();
    });
  });
});
