import { describe, expect, it, jest } from '@jest/globals';
import { issueToken, parseToken } from './api-key-token.js';
import { KeyRecord, KeyRecordCache } from './key-record-cache.js';

const TTL_MS = 60_000;

/** A store of one key, a clock the test moves, and a cache over both. */
function setup() {
  const issued = issueToken('account');
  const stored: KeyRecord = { keyId: issued.keyId, secretHash: issued.secretHash, revoked: false };
  let now = 1_000_000;
  const load = jest.fn(async (keyId: string) => (keyId === stored.keyId ? { ...stored } : null));
  const cache = new KeyRecordCache<KeyRecord>(TTL_MS, 100, () => now);
  const verify = (token: string) => cache.verify(parseToken(token)!.keyId, token, load);
  return {
    issued,
    stored,
    load,
    cache,
    verify,
    advance: (ms: number) => (now += ms),
  };
}

describe(KeyRecordCache.name, () => {
  it('verifies a repeated token from memory: one store read for many requests', async () => {
    const { issued, load, verify } = setup();
    for (let i = 0; i < 5; i++)
      expect(await verify(issued.secret)).toMatchObject({ revoked: false });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('knows a token without the store only once it was verified, and forgets it on eviction', async () => {
    const { issued, cache, load, verify, advance } = setup();
    const known = () => cache.known(issued.keyId, issued.secret, load);
    expect(known()).toBeUndefined();
    await verify(issued.secret);
    expect(known()).toMatchObject({ keyId: issued.keyId });
    const forged = issued.secret.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    expect(cache.known(issued.keyId, forged, load)).toBeUndefined();
    cache.evict(issued.keyId);
    expect(known()).toBeUndefined();
    await verify(issued.secret);
    advance(TTL_MS);
    expect(known()).toBeUndefined();
    // Neither the unknown nor the expired entry was read from the store by `known`.
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('refuses another secret under a cached key id', async () => {
    const { issued, verify } = setup();
    await verify(issued.secret);
    const forged = issued.secret.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    expect(await verify(forged)).toBeNull();
    // The genuine token still verifies after the forged one was refused.
    expect(await verify(issued.secret)).not.toBeNull();
  });

  it('refuses a key on the very next request once it is revoked in this process', async () => {
    const { issued, stored, cache, load, verify } = setup();
    await verify(issued.secret);
    await verify(issued.secret);
    stored.revoked = true;
    cache.evict(issued.keyId);
    expect(await verify(issued.secret)).toBeNull();
    expect(await verify(issued.secret)).toBeNull();
    // Revoked records are not cached: every later request asks the store again.
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('refuses a key revoked elsewhere once its entry expires, at most the TTL after the read', async () => {
    const { issued, stored, verify, advance } = setup();
    await verify(issued.secret);
    stored.revoked = true; // another process revoked it; this one was not told
    advance(TTL_MS - 1);
    expect(await verify(issued.secret)).not.toBeNull();
    advance(1);
    expect(await verify(issued.secret)).toBeNull();
  });

  it('reads a used key again in the background past half its TTL: no request waits for the store', async () => {
    const { issued, stored, load, verify, advance } = setup();
    await verify(issued.secret);
    advance(TTL_MS / 2);
    expect(await verify(issued.secret)).not.toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
    await new Promise((resolve) => setImmediate(resolve));
    // The reloaded record lives a TTL from its read, and still proves the same token.
    advance(TTL_MS - 1);
    expect(await verify(issued.secret)).not.toBeNull();
    expect(load).toHaveBeenCalledTimes(3);
    // A revocation the background read finds refuses the key on the next request.
    stored.revoked = true;
    advance(TTL_MS / 2);
    expect(await verify(issued.secret)).not.toBeNull();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await verify(issued.secret)).toBeNull();
  });

  it('does not keep a record read before a revocation that happened during the read', async () => {
    const { issued, stored, cache, verify } = setup();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slowLoad = async (keyId: string) => {
      const snapshot = keyId === stored.keyId ? { ...stored } : null;
      await gate;
      return snapshot;
    };
    const racing = cache.verify(issued.keyId, issued.secret, slowLoad);
    stored.revoked = true;
    cache.evict(issued.keyId);
    release();
    // The racing request read the record before the revocation; it may pass, once.
    expect(await racing).not.toBeNull();
    expect(await verify(issued.secret)).toBeNull();
  });

  it('answers an unknown key id with null and reads the store each time', async () => {
    const { load, verify } = setup();
    const stranger = issueToken('account').secret;
    expect(await verify(stranger)).toBeNull();
    expect(await verify(stranger)).toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('gives the record without a token check for sessions, and forgets it on eviction', async () => {
    const { issued, stored, cache, load } = setup();
    expect(await cache.record(issued.keyId, load)).toMatchObject({ revoked: false });
    stored.revoked = true;
    cache.evict(issued.keyId);
    expect(await cache.record(issued.keyId, load)).toMatchObject({ revoked: true });
  });
});
