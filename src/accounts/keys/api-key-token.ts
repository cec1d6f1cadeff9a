import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API key tokens look like `dpa_<keyPart>_<secret>` (account keys) and
 * `dpk_<keyPart>_<secret>` (processing keys): a recognizable prefix so a leaked token can be
 * spotted by secret scanners and a key of the wrong kind is refused with a helpful message,
 * a public key part (64 random bits, hex) that names the key, and a 256-bit secret (hex).
 * The stored key id is `ak_<keyPart>` or `pk_<keyPart>`; only the SHA-256 of the whole
 * token is stored. A slow password hash is not needed: the secret is random and 256 bits
 * long, so it cannot be guessed from its hash, and verification stays a cheap point lookup.
 */
type ApiKeyKind = 'account' | 'processing';

const TOKEN_PREFIX: Record<ApiKeyKind, string> = { account: 'dpa', processing: 'dpk' };
const ID_PREFIX: Record<ApiKeyKind, string> = { account: 'ak', processing: 'pk' };
const TOKEN_PATTERN = /^(dpa|dpk)_([0-9a-f]{16})_([0-9a-f]{64})$/;

interface IssuedToken {
  keyId: string;
  /** The full bearer token, shown to its owner once. */
  secret: string;
  /** SHA-256 of the token, hex; the only thing stored. */
  secretHash: string;
}

interface ParsedToken {
  kind: ApiKeyKind;
  keyId: string;
  token: string;
}

export function issueToken(kind: ApiKeyKind): IssuedToken {
  const keyPart = randomBytes(8).toString('hex');
  const secret = `${TOKEN_PREFIX[kind]}_${keyPart}_${randomBytes(32).toString('hex')}`;
  return { keyId: `${ID_PREFIX[kind]}_${keyPart}`, secret, secretHash: hashToken(secret) };
}

/** Reads the kind and key id out of a token; null when it is not shaped like one of ours. */
export function parseToken(token: string): ParsedToken | null {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const kind: ApiKeyKind = match[1] === TOKEN_PREFIX.account ? 'account' : 'processing';
  return { kind, keyId: `${ID_PREFIX[kind]}_${match[2]}`, token };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented token with a stored hash. */
export function tokenMatchesHash(token: string, storedHash: string): boolean {
  const presented = createHash('sha256').update(token, 'utf8').digest();
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}

/** Whether an id names a key of this kind (`ak_...` / `pk_...`). */
export function isKeyId(kind: ApiKeyKind, keyId: string): boolean {
  return new RegExp(`^${ID_PREFIX[kind]}_[0-9a-f]{16}$`).test(keyId);
}
