import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiKeyService } from '../../../src/accounts/keys/api-key.service.js';
import { seedAccount, SeededAccount } from '../../support/accounts.js';
import { startTestApp, TestApp } from '../../support/test-app.js';

let t: TestApp;
let acme: SeededAccount;

beforeAll(async () => {
  t = await startTestApp();
  acme = await seedAccount(t.app, 'Acme');
});

afterAll(async () => {
  await t.close();
});

async function signIn(key = acme.accountKey) {
  const res = await fetch(`${t.baseUrl}/dashboard/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: t.baseUrl },
    body: JSON.stringify({ key }),
  });
  const setCookie = res.headers.get('set-cookie') ?? '';
  const body = (await res.json()) as { csrfToken?: string; expiresAt?: string };
  return { status: res.status, setCookie, cookie: setCookie.split(';')[0], body };
}

function withCookie(cookie: string, init: RequestInit = {}): RequestInit {
  return { ...init, headers: { ...(init.headers as Record<string, string>), cookie } };
}

describe('the page', () => {
  it('redirects / to /dashboard', async () => {
    const res = await fetch(`${t.baseUrl}/`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/dashboard');
  });

  it('serves the HTML with a same-origin-only content security policy', async () => {
    const res = await fetch(`${t.baseUrl}/dashboard`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await res.text()).toContain('/dashboard/assets/app.js');
  });

  it('serves its own modules and the vendor files from installed packages', async () => {
    for (const name of [
      'app.js',
      'dashboard.css',
      'vendor/chart.umd.min.js',
      'vendor/preact-htm.js',
    ]) {
      const res = await fetch(`${t.baseUrl}/dashboard/assets/${name}`);
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
  });

  it('answers 404 for any other asset name, traversal attempts included', async () => {
    for (const name of ['nope.js', '..%2Fdashboard-assets.ts', 'vendor/..%2F..%2Fpackage.json']) {
      expect((await fetch(`${t.baseUrl}/dashboard/assets/${name}`)).status).toBe(404);
    }
  });
});

describe('sign-in and the session cookie', () => {
  it('exchanges an account key for an HTTP-only, SameSite=Strict cookie with an expiry', async () => {
    const { status, setCookie, body } = await signIn();
    expect(status).toBe(201);
    expect(setCookie).toMatch(/^docproc_session=v1\./);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Max-Age=\d+/);
    expect(setCookie).not.toContain(acme.accountKey);
    expect(body.csrfToken).toEqual(expect.any(String));
  });

  it('refuses a processing key or a wrong key with 401 and sets no cookie', async () => {
    for (const key of [acme.processingKey, 'dpa_0000000000000000_00']) {
      const res = await signIn(key);
      expect(res.status).toBe(401);
      expect(res.setCookie).toBe('');
    }
  });

  it('refuses a body that is not the sign-in JSON object (422)', async () => {
    const res = await fetch(`${t.baseUrl}/dashboard/session`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: `key=${acme.accountKey}`,
    });
    expect(res.status).toBe(422);
  });

  it('reports who the session stands for, and a signed-out state without error', async () => {
    const { cookie, body } = await signIn();
    const res = await fetch(`${t.baseUrl}/dashboard/session`, withCookie(cookie));
    expect(await res.json()).toMatchObject({
      signedIn: true,
      userId: acme.userId,
      csrfToken: body.csrfToken,
    });
    const anonymous = await fetch(`${t.baseUrl}/dashboard/session`);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ signedIn: false });
  });

  it('is accepted like the account key by the export and the dashboard endpoints', async () => {
    const { cookie } = await signIn();
    const usage = await fetch(`${t.baseUrl}/api/v1/usage/export`, withCookie(cookie));
    expect(usage.status).toBe(200);
    expect(await usage.json()).toMatchObject({ orgId: acme.orgId });
    const orgs = await fetch(`${t.baseUrl}/api/v1/orgs`, withCookie(cookie));
    expect(orgs.status).toBe(200);
  });

  it('needs the CSRF token for state-changing calls, and refuses other origins', async () => {
    const { cookie, body } = await signIn();
    const url = `${t.baseUrl}/api/v1/orgs/${acme.orgId}/processing-keys`;
    const post = (headers: Record<string, string>) =>
      fetch(
        url,
        withCookie(cookie, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ name: 'from-the-page' }),
        }),
      );
    const missing = await post({});
    expect(missing.status).toBe(403);
    expect(await missing.json()).toMatchObject({ error: { code: 'CSRF_TOKEN_INVALID' } });
    const crossSite = await post({
      'x-csrf-token': body.csrfToken!,
      origin: 'https://evil.example',
    });
    expect(crossSite.status).toBe(403);
    const ok = await post({ 'x-csrf-token': body.csrfToken!, origin: t.baseUrl });
    expect(ok.status).toBe(201);
  });

  it('prefers a bearer header over the cookie, and a bad bearer is not rescued by it', async () => {
    const { cookie } = await signIn();
    const res = await fetch(
      `${t.baseUrl}/api/v1/orgs`,
      withCookie(cookie, { headers: { authorization: 'Bearer dpa_bad' } }),
    );
    expect(res.status).toBe(401);
  });

  it('stops working once its account key is revoked', async () => {
    const created = await t.app.get(ApiKeyService).createAccountKey(acme.userId, {
      defaultOrgId: acme.orgId,
    });
    const { cookie } = await signIn(created.secret);
    expect((await fetch(`${t.baseUrl}/api/v1/orgs`, withCookie(cookie))).status).toBe(200);
    await t.app.get(ApiKeyService).revokeAccountKey(acme.userId, created.keyId);
    const res = await fetch(`${t.baseUrl}/api/v1/orgs`, withCookie(cookie));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      error: { message: expect.stringMatching(/revoked/) },
    });
    const session = await fetch(`${t.baseUrl}/dashboard/session`, withCookie(cookie));
    expect(await session.json()).toMatchObject({ signedIn: false, message: expect.any(String) });
    expect(session.headers.get('set-cookie')).toMatch(/Max-Age=0/);
  });

  it('signs out: the cookie is cleared, with the CSRF token required while it is live', async () => {
    const { cookie, body } = await signIn();
    const without = await fetch(
      `${t.baseUrl}/dashboard/session`,
      withCookie(cookie, { method: 'DELETE' }),
    );
    expect(without.status).toBe(403);
    const res = await fetch(
      `${t.baseUrl}/dashboard/session`,
      withCookie(cookie, { method: 'DELETE', headers: { 'x-csrf-token': body.csrfToken! } }),
    );
    expect(res.status).toBe(204);
    expect(res.headers.get('set-cookie')).toMatch(/^docproc_session=;.*Max-Age=0/);
  });
});
