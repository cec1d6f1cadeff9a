import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { csrfTokenFor, csrfTokenMatches, signSession, verifySession } from './session-cookie.js';

const secret = randomBytes(32);
const claims = { keyId: 'ak_0123456789abcdef', expiresAt: 2_000_000_000 };
const now = claims.expiresAt - 60;

describe('session cookie', () => {
  it('verifies a cookie it signed, giving back the key id and expiry', () => {
    expect(verifySession(secret, signSession(secret, claims), now)).toEqual(claims);
  });

  it('refuses a cookie at or after its expiry', () => {
    const value = signSession(secret, claims);
    expect(verifySession(secret, value, claims.expiresAt)).toBeNull();
    expect(verifySession(secret, value, claims.expiresAt + 1)).toBeNull();
  });

  it('refuses a cookie signed with another secret (another data directory)', () => {
    expect(verifySession(randomBytes(32), signSession(secret, claims), now)).toBeNull();
  });

  it('refuses a cookie whose key id or expiry was changed', () => {
    const value = signSession(secret, claims);
    const otherKey = value.replace(claims.keyId, 'ak_fedcba9876543210');
    const later = value.replace(String(claims.expiresAt), String(claims.expiresAt + 86_400));
    expect(verifySession(secret, otherKey, now)).toBeNull();
    expect(verifySession(secret, later, now)).toBeNull();
  });

  it('refuses malformed values without throwing', () => {
    for (const value of [
      '',
      'v1',
      'v1.ak_x.1.sig',
      'v2.ak_0123456789abcdef.2000000000.x',
      '....',
    ]) {
      expect(verifySession(secret, value, now)).toBeNull();
    }
    const forged = `v1.${claims.keyId}.${claims.expiresAt}.${'A'.repeat(43)}`;
    expect(verifySession(secret, forged, now)).toBeNull();
  });

  it('never carries the account key secret', () => {
    const value = signSession(secret, claims);
    expect(value.split('.')).toHaveLength(4);
    expect(value).not.toContain('dpa_');
  });
});

describe('CSRF token', () => {
  it('matches only the session it was derived from', () => {
    const session = signSession(secret, claims);
    const other = signSession(secret, { ...claims, expiresAt: claims.expiresAt + 1 });
    const token = csrfTokenFor(secret, session);
    expect(csrfTokenMatches(secret, session, token)).toBe(true);
    expect(csrfTokenMatches(secret, other, token)).toBe(false);
    expect(csrfTokenMatches(randomBytes(32), session, token)).toBe(false);
  });

  it('refuses a missing, empty, repeated or truncated header', () => {
    const session = signSession(secret, claims);
    const token = csrfTokenFor(secret, session);
    expect(csrfTokenMatches(secret, session, undefined)).toBe(false);
    expect(csrfTokenMatches(secret, session, '')).toBe(false);
    expect(csrfTokenMatches(secret, session, [token, token])).toBe(false);
    expect(csrfTokenMatches(secret, session, token.slice(1))).toBe(false);
  });
});
