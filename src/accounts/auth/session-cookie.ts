import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The dashboard session cookie: `v1.<account key id>.<expiry, unix seconds>.<HMAC>`. It names
 * the account key it was exchanged for, never the key's secret; the guard re-checks that the
 * key is still live on every request, so revoking the key ends its sessions.
 */
export const SESSION_COOKIE = 'docproc_session';
export const SESSION_TTL_SECONDS = 8 * 60 * 60;
/** Header a cookie-authenticated state-changing request must carry (see csrfTokenFor). */
export const CSRF_HEADER = 'x-csrf-token';

const VERSION = 'v1';
const KEY_ID = /^ak_[0-9a-f]{16}$/;

interface SessionClaims {
  keyId: string;
  /** Unix seconds. */
  expiresAt: number;
}

function mac(secret: Buffer, purpose: string, payload: string): string {
  return createHmac('sha256', secret).update(`docproc-${purpose}\n${payload}`).digest('base64url');
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function signSession(secret: Buffer, claims: SessionClaims): string {
  const payload = `${VERSION}.${claims.keyId}.${claims.expiresAt}`;
  return `${payload}.${mac(secret, 'session', payload)}`;
}

/** The claims of an authentic, unexpired cookie value; null for anything else. */
export function verifySession(
  secret: Buffer,
  value: string,
  nowSeconds: number,
): SessionClaims | null {
  const parts = value.split('.');
  if (parts.length !== 4) return null;
  const [version, keyId, expires, signature] = parts;
  if (version !== VERSION || !KEY_ID.test(keyId) || !/^\d{1,12}$/.test(expires)) return null;
  if (!sameText(signature, mac(secret, 'session', `${version}.${keyId}.${expires}`))) return null;
  const expiresAt = Number(expires);
  if (expiresAt <= nowSeconds) return null;
  return { keyId, expiresAt };
}

/**
 * The anti-CSRF token of a session: derived from the cookie value, so it needs no storage,
 * changes with every sign-in, and only a page that can read same-origin responses learns it.
 */
export function csrfTokenFor(secret: Buffer, sessionValue: string): string {
  return mac(secret, 'csrf', sessionValue);
}

export function csrfTokenMatches(secret: Buffer, sessionValue: string, given: unknown): boolean {
  return typeof given === 'string' && sameText(given, csrfTokenFor(secret, sessionValue));
}
