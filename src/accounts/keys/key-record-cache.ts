import { timingSafeEqual } from 'node:crypto';
import { TtlCache } from '../../common/ttl-cache.js';
import { hashToken, tokenMatchesHash } from './api-key-token.js';

/** Compared against when a key id is unknown, so a miss costs about what a hit does. */
const UNKNOWN_KEY_HASH = hashToken('docproc:no-such-key');

export interface KeyRecord {
  keyId: string;
  secretHash: string;
  revoked: boolean;
}

interface Entry<T> {
  record: T;
  /** The token last proven against `secretHash`: the same token again skips the SHA-256. */
  verifiedToken: Buffer | null;
}

/**
 * Live key records by key id, each remembering the one token that was last verified
 * against its stored hash. A busy key then costs a map lookup and a constant-time compare
 * per request instead of a DuckDB read queued behind exports plus a SHA-256.
 *
 * Revocation: `evict` (called by whoever revokes in this process) drops the record and its
 * token at once, and a load that was already running when it happened is not cached. A
 * revocation this process does not see takes effect when the entry expires, at most
 * `ttlMs` after the record was read from the store (a used entry is read again after half
 * of it, in the background); the remembered token never outlives its record. Unknown and
 * revoked keys are never cached, so they always go to the store.
 */
export class KeyRecordCache<T extends KeyRecord> {
  private readonly entries: TtlCache<Entry<T>>;
  /** Bumped by every eviction: a load that started before one must not refill the cache. */
  private evictions = 0;

  constructor(ttlMs: number, maxEntries: number, now?: () => number) {
    this.entries = new TtlCache<Entry<T>>(ttlMs, maxEntries, now);
  }

  /** The live or revoked record of `keyId` (null when unknown), without checking a token. */
  async record(keyId: string, load: (keyId: string) => Promise<T | null>): Promise<T | null> {
    return (await this.entry(keyId, load))?.record ?? null;
  }

  /**
   * The unrevoked record `token` is the secret of; null for an unknown key, a wrong secret
   * or a revoked key.
   */
  async verify(
    keyId: string,
    token: string,
    load: (keyId: string) => Promise<T | null>,
  ): Promise<T | null> {
    const entry = await this.entry(keyId, load);
    if (entry?.verifiedToken && sameToken(entry.verifiedToken, token)) return entry.record;
    const matches = tokenMatchesHash(token, entry?.record.secretHash ?? UNKNOWN_KEY_HASH);
    if (!entry || !matches || entry.record.revoked) return null;
    // Only cached entries are live records; a revoked one was never stored.
    entry.verifiedToken = Buffer.from(token, 'utf8');
    return entry.record;
  }

  /**
   * The unrevoked record `token` was last proven against, when this process holds both:
   * no store read and no hash. Undefined for anything else (an unknown, expired or revoked
   * entry, another token), which `verify` then decides.
   */
  known(keyId: string, token: string, load: (keyId: string) => Promise<T | null>): T | undefined {
    const entry = this.hit(keyId, load);
    return entry?.verifiedToken && sameToken(entry.verifiedToken, token) ? entry.record : undefined;
  }

  /** Forgets `keyId` at once (its record and its verified token): call on revocation. */
  evict(keyId: string): void {
    this.evictions++;
    this.entries.delete(keyId);
  }

  private hit(keyId: string, load: (keyId: string) => Promise<T | null>): Entry<T> | undefined {
    // A busy key is read again ahead of its expiry, off the request's path; the record
    // read then must prove a token again (its hash may have changed).
    return this.entries.get(keyId, async () => {
      const record = await load(keyId);
      return record && !record.revoked ? { record, verifiedToken: null } : undefined;
    });
  }

  private async entry(
    keyId: string,
    load: (keyId: string) => Promise<T | null>,
  ): Promise<Entry<T> | null> {
    const hit = this.hit(keyId, load);
    if (hit) return hit;
    const evictionsBefore = this.evictions;
    const record = await load(keyId);
    if (!record) return null;
    const entry: Entry<T> = { record, verifiedToken: null };
    // A revocation while the read ran may have read the record before it: do not keep it.
    if (!record.revoked && this.evictions === evictionsBefore) this.entries.set(keyId, entry);
    return entry;
  }
}

function sameToken(verified: Buffer, token: string): boolean {
  const presented = Buffer.from(token, 'utf8');
  return presented.length === verified.length && timingSafeEqual(presented, verified);
}
