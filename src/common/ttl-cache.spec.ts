import { describe, expect, it } from '@jest/globals';
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
});
