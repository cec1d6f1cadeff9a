import { describe, expect, it } from '@jest/globals';
import { hashToken, isKeyId, issueToken, parseToken, tokenMatchesHash } from './api-key-token.js';

describe('api key tokens', () => {
  it('issues account tokens with the dpa_ prefix whose key part names the ak_ key id', () => {
    const issued = issueToken('account');
    expect(issued.secret).toMatch(/^dpa_[0-9a-f]{16}_[0-9a-f]{64}$/);
    expect(issued.keyId).toBe(`ak_${issued.secret.slice(4, 20)}`);
    expect(isKeyId('account', issued.keyId)).toBe(true);
    expect(parseToken(issued.secret)).toEqual({
      kind: 'account',
      keyId: issued.keyId,
      token: issued.secret,
    });
  });

  it('issues processing tokens with the dpk_ prefix and pk_ key ids', () => {
    const issued = issueToken('processing');
    expect(issued.secret).toMatch(/^dpk_[0-9a-f]{16}_[0-9a-f]{64}$/);
    expect(issued.keyId).toMatch(/^pk_[0-9a-f]{16}$/);
    expect(parseToken(issued.secret)?.kind).toBe('processing');
  });

  it('never issues the same secret twice', () => {
    const secrets = new Set(Array.from({ length: 200 }, () => issueToken('account').secret));
    expect(secrets.size).toBe(200);
  });

  it('stores a SHA-256 hash that is not the secret and verifies only the exact token', () => {
    const issued = issueToken('processing');
    expect(issued.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(issued.secretHash).not.toContain(issued.secret.slice(21));
    expect(issued.secretHash).toBe(hashToken(issued.secret));
    expect(tokenMatchesHash(issued.secret, issued.secretHash)).toBe(true);
    const lastChar = issued.secret.at(-1) === '0' ? '1' : '0';
    expect(tokenMatchesHash(issued.secret.slice(0, -1) + lastChar, issued.secretHash)).toBe(false);
  });

  it('treats a malformed stored hash as a mismatch instead of throwing', () => {
    const issued = issueToken('account');
    expect(tokenMatchesHash(issued.secret, 'abc')).toBe(false);
  });

  it.each([
    '',
    'dpa_',
    'dpx_0123456789abcdef_' + 'a'.repeat(64),
    'dpa_0123456789ABCDEF_' + 'a'.repeat(64),
    'dpa_0123456789abcdef_' + 'a'.repeat(63),
    'dpa_0123456789abcdef_' + 'a'.repeat(64) + ' ',
  ])('does not parse malformed token %j', (token) => {
    expect(parseToken(token)).toBeNull();
  });
});
