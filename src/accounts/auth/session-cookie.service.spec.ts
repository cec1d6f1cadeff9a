import { randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../common/api-error.js';
import type { AppConfig } from '../../config/app-config.js';
import type { ApiKeyService } from '../keys/api-key.service.js';
import type { AccountPrincipal } from '../principal.js';
import { SessionCookieService } from './session-cookie.service.js';
import type { SessionSecretRepository } from './session-secret.repository.js';

const KEY = 'dpa_0123456789abcdef_secret';
const principal: AccountPrincipal = {
  kind: 'account',
  keyId: 'ak_0123456789abcdef',
  userId: 'usr_1',
  defaultOrgId: 'org_1',
};

function request(patch: {
  method?: string;
  cookie?: string;
  headers?: Record<string, string>;
}): FastifyRequest {
  return {
    method: patch.method ?? 'GET',
    protocol: 'http',
    headers: {
      host: 'localhost:3000',
      ...(patch.cookie ? { cookie: patch.cookie } : {}),
      ...patch.headers,
    },
  } as unknown as FastifyRequest;
}

/** `name=value` of a Set-Cookie header, as the browser sends it back. */
function cookiePair(setCookie: string): string {
  return setCookie.split(';')[0];
}

describe(SessionCookieService.name, () => {
  let sut: SessionCookieService;
  let liveKeys: Set<string>;

  beforeEach(async () => {
    liveKeys = new Set([principal.keyId]);
    const secret = randomBytes(32);
    const secrets = { getOrCreate: jest.fn(async () => secret) };
    const keys = {
      verifyAccountKey: jest.fn(async (token: string) =>
        token === KEY && liveKeys.has(principal.keyId) ? principal : null,
      ),
      accountPrincipalOfKey: jest.fn(async (keyId: string) =>
        liveKeys.has(keyId) ? principal : null,
      ),
    };
    sut = new SessionCookieService(
      secrets as unknown as SessionSecretRepository,
      keys as unknown as ApiKeyService,
      { publicBaseUrl: 'http://localhost:3000' } as AppConfig,
    );
    await sut.onModuleInit();
  });

  async function signedIn() {
    const issued = await sut.signIn(request({ method: 'POST' }), KEY);
    return { ...issued, cookie: cookiePair(issued.setCookie) };
  }

  it('issues an HTTP-only, SameSite=Strict cookie with an expiry for a valid key', async () => {
    const issued = await sut.signIn(request({ method: 'POST' }), KEY);
    expect(issued.setCookie).toMatch(/^docproc_session=v1\.ak_0123456789abcdef\.\d+\.[\w-]+;/);
    expect(issued.setCookie).toContain('HttpOnly');
    expect(issued.setCookie).toContain('SameSite=Strict');
    expect(issued.setCookie).toContain('Max-Age=28800');
    expect(issued.setCookie).toContain('Path=/');
    expect(issued.setCookie).not.toContain(KEY);
    expect(Date.parse(issued.expiresAt) - Date.now()).toBeGreaterThan(7.9 * 3600_000);
  });

  it('refuses to sign in with an invalid key (401)', async () => {
    await expect(sut.signIn(request({ method: 'POST' }), 'dpa_nope')).rejects.toMatchObject({
      status: 401,
    });
  });

  it('refuses a sign-in posted from another origin (login CSRF)', async () => {
    const crossSite = request({ method: 'POST', headers: { origin: 'https://evil.example' } });
    await expect(sut.signIn(crossSite, KEY)).rejects.toMatchObject({ status: 403 });
  });

  it('gives no session for a request without the cookie, so the guard asks for a key', async () => {
    expect(await sut.authenticate(request({ cookie: 'other=1' }))).toBeNull();
  });

  it('stands for the key on safe requests without a CSRF token', async () => {
    const { cookie, csrfToken } = await signedIn();
    const session = await sut.authenticate(request({ cookie }));
    expect(session).toMatchObject({ principal, csrfToken });
  });

  it('requires the CSRF token on state-changing requests', async () => {
    const { cookie, csrfToken } = await signedIn();
    const without = sut.authenticate(request({ method: 'POST', cookie }));
    await expect(without).rejects.toBeInstanceOf(ApiError);
    await expect(without).rejects.toMatchObject({ status: 403, code: 'CSRF_TOKEN_INVALID' });
    const wrong = request({ method: 'DELETE', cookie, headers: { 'x-csrf-token': 'x' } });
    await expect(sut.authenticate(wrong)).rejects.toMatchObject({ status: 403 });
    const right = request({ method: 'DELETE', cookie, headers: { 'x-csrf-token': csrfToken } });
    expect((await sut.authenticate(right))?.principal).toEqual(principal);
  });

  it('refuses a state-changing request from another site even with the token', async () => {
    const { cookie, csrfToken } = await signedIn();
    const crossSite = request({
      method: 'POST',
      cookie,
      headers: { 'x-csrf-token': csrfToken, 'sec-fetch-site': 'cross-site' },
    });
    await expect(sut.authenticate(crossSite)).rejects.toMatchObject({
      status: 403,
      code: 'CROSS_SITE_REQUEST',
    });
  });

  it('answers 401 once the key the session was exchanged for is revoked', async () => {
    const { cookie } = await signedIn();
    liveKeys.clear();
    await expect(sut.authenticate(request({ cookie }))).rejects.toMatchObject({ status: 401 });
  });

  it('answers 401 for a forged or tampered cookie', async () => {
    const { cookie } = await signedIn();
    await expect(sut.authenticate(request({ cookie: `${cookie}x` }))).rejects.toMatchObject({
      status: 401,
    });
  });

  it('clears the cookie on sign-out', () => {
    const cleared = sut.clearCookie(request({}));
    expect(cleared).toMatch(/^docproc_session=;/);
    expect(cleared).toContain('Max-Age=0');
  });
});
