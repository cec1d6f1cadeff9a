import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { ApiKeyService } from '../../../src/accounts/keys/api-key.service.js';
import { apiCall } from '../../support/http.js';
import { startTestApp, TestApp } from '../../support/test-app.js';

interface Json {
  [key: string]: unknown;
}

describe('account dashboard: orgs and processing keys over HTTP', () => {
  let t: TestApp;
  let accounts: AccountsService;
  let keys: ApiKeyService;
  let acme: string;
  let globex: string;
  let adaKey: string;
  let bobKey: string;

  const call = (method: string, route: string, token?: string, body?: unknown) =>
    apiCall(t.baseUrl, method, route, token, body);

  beforeAll(async () => {
    t = await startTestApp();
    accounts = t.app.get(AccountsService);
    keys = t.app.get(ApiKeyService);
    acme = (await accounts.createOrg('Acme')).orgId;
    globex = (await accounts.createOrg('Globex')).orgId;
    const ada = (await accounts.createUser('ada@example.com')).userId;
    const bob = (await accounts.createUser('bob@example.com')).userId;
    await accounts.addMember(acme, ada, 'owner');
    // Managing keys needs owner or admin (roles.e2e.spec.ts covers the refusals).
    await accounts.addMember(globex, ada, 'admin');
    await accounts.addMember(globex, bob, 'admin');
    adaKey = (await keys.createAccountKey(ada)).secret;
    bobKey = (await keys.createAccountKey(bob, { defaultOrgId: globex })).secret;
  });
  afterAll(async () => {
    await t.close();
  });

  it('GET /api/v1/orgs lists exactly the caller orgs with their role', async () => {
    const res = await call('GET', '/api/v1/orgs', adaKey);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Json[] };
    expect(body.data.map((o) => [o.orgId, o.name, o.role])).toEqual([
      [acme, 'Acme', 'owner'],
      [globex, 'Globex', 'admin'],
    ]);
    const bobs = (await (await call('GET', '/api/v1/orgs', bobKey)).json()) as { data: Json[] };
    expect(bobs.data.map((o) => o.orgId)).toEqual([globex]);
  });

  it('answers 401 with WWW-Authenticate without a key, with a bad key and with a processing key', async () => {
    const processing = (await keys.createProcessingKey(acme)).secret;
    for (const token of [undefined, 'dpa_nope', processing]) {
      const res = await call('GET', '/api/v1/orgs', token);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('creates a processing key for a member org, shows the secret once, and it authenticates', async () => {
    const res = await call('POST', `/api/v1/orgs/${acme}/processing-keys`, adaKey, { name: 'ci' });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { keyId: string; secret: string };
    expect(created).toEqual({
      keyId: expect.stringMatching(/^pk_[0-9a-f]{16}$/),
      secret: expect.stringMatching(/^dpk_[0-9a-f]{16}_[0-9a-f]{64}$/),
      orgId: acme,
      name: 'ci',
    });
    expect(await keys.verifyProcessingKey(created.secret)).toEqual({
      kind: 'processing',
      keyId: created.keyId,
      orgId: acme,
    });
    const list = (await (
      await call('GET', `/api/v1/orgs/${acme}/processing-keys`, adaKey)
    ).json()) as {
      data: Json[];
    };
    const listed = list.data.find((k) => k.keyId === created.keyId);
    expect(listed).toEqual({
      keyId: created.keyId,
      orgId: acme,
      name: 'ci',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      revokedAt: null,
    });
    expect(JSON.stringify(list)).not.toContain(created.secret.slice(21));
  });

  it('accepts a POST without a body (the name is optional)', async () => {
    const res = await call('POST', `/api/v1/orgs/${globex}/processing-keys`, bobKey);
    expect(res.status).toBe(201);
    expect(((await res.json()) as Json).name).toBeNull();
  });

  it('keeps a key name of nothing visible as no name, and a visible one trimmed', async () => {
    // Spaces, a zero-width space, a word joiner with a BIDI override, a combining mark alone.
    const names = ['   ', '\u200B', '\u2060\u202E', ' \u0301 ', ' Re\u0301sume\u0301 '];
    const kept = async (route: string, token: string, name: string) =>
      ((await (await call('POST', route, token, { name })).json()) as Json).name;
    const processing: unknown[] = [];
    const account: unknown[] = [];
    for (const name of names) {
      processing.push(await kept(`/api/v1/orgs/${globex}/processing-keys`, bobKey, name));
      account.push(await kept('/api/v1/account-keys', adaKey, name));
    }
    expect([processing, account]).toEqual([
      [null, null, null, null, 'Re\u0301sume\u0301'],
      [null, null, null, null, 'Re\u0301sume\u0301'],
    ]);
    const listed = (await (
      await call('GET', `/api/v1/orgs/${globex}/processing-keys`, bobKey)
    ).json()) as {
      data: Json[];
    };
    expect(listed.data.map((k) => k.name)).not.toContain('\u200B');
    await expect(accounts.createOrg('\u200B\u00A0')).rejects.toMatchObject({
      code: 'INVALID_NAME',
    });
  });

  it('refuses non-members with 403 NOT_A_MEMBER on every key route, unknown orgs included', async () => {
    const keyOfAcme = await keys.createProcessingKey(acme);
    const attempts: [string, string, unknown?][] = [
      ['POST', `/api/v1/orgs/${acme}/processing-keys`, { name: 'x' }],
      ['GET', `/api/v1/orgs/${acme}/processing-keys`],
      ['DELETE', `/api/v1/orgs/${acme}/processing-keys/${keyOfAcme.keyId}`],
      ['GET', '/api/v1/orgs/org_doesnotexist/processing-keys'],
    ];
    for (const [method, route, body] of attempts) {
      const res = await call(method, route, bobKey, body);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: Json }).error.code).toBe('NOT_A_MEMBER');
    }
    expect(await keys.verifyProcessingKey(keyOfAcme.secret)).not.toBeNull();
  });

  it.each([
    ['an unknown field', { name: 'ci', admin: true }, /admin should not exist/],
    ['a non-string name', { name: 42 }, /name must be a string/],
    ['an over-long name', { name: 'x'.repeat(101) }, /name must be shorter/],
    ['a null name', { name: null }, /name must be a string/],
    ['a body that is null', null, /must be a JSON object/],
    ['a body that is a list', [{ name: 'ci' }], /must be a JSON object/],
  ])('answers 422 INVALID_BODY for %s', async (_label, body, message) => {
    const res = await call('POST', `/api/v1/orgs/${acme}/processing-keys`, adaKey, body);
    expect(res.status).toBe(422);
    const error = ((await res.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('INVALID_BODY');
    expect(error.message).toMatch(message);
  });

  it('answers 400 for malformed JSON', async () => {
    const res = await call('POST', `/api/v1/orgs/${acme}/processing-keys`, adaKey, '{"name":');
    expect(res.status).toBe(400);
  });

  it('revokes a key: it stops authenticating, shows revokedAt, and revoking again is harmless', async () => {
    const created = await keys.createProcessingKey(globex, { name: 'temp' });
    const route = `/api/v1/orgs/${globex}/processing-keys/${created.keyId}`;
    const res = await call('DELETE', route, bobKey);
    expect(res.status).toBe(200);
    const revoked = (await res.json()) as Json;
    expect(revoked).toMatchObject({ keyId: created.keyId, revokedAt: expect.any(String) });
    expect(await keys.verifyProcessingKey(created.secret)).toBeNull();
    const again = (await (await call('DELETE', route, bobKey)).json()) as Json;
    expect(again.revokedAt).toBe(revoked.revokedAt);
  });

  it('answers 404 KEY_NOT_FOUND for a key of another org or an unknown key', async () => {
    const other = await keys.createProcessingKey(acme);
    for (const keyId of [other.keyId, 'pk_0000000000000000']) {
      const res = await call('DELETE', `/api/v1/orgs/${globex}/processing-keys/${keyId}`, adaKey);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: Json }).error.code).toBe('KEY_NOT_FOUND');
    }
    expect(await keys.verifyProcessingKey(other.secret)).not.toBeNull();
  });
});

describe('account dashboard: personal account keys over HTTP', () => {
  let t: TestApp;
  let acme: string;
  let other: string;
  let adaId: string;
  let adaKey: { keyId: string; secret: string };

  const call = (method: string, route: string, token?: string, body?: unknown) =>
    apiCall(t.baseUrl, method, route, token, body);

  beforeAll(async () => {
    t = await startTestApp();
    const accounts = t.app.get(AccountsService);
    acme = (await accounts.createOrg('Acme')).orgId;
    other = (await accounts.createOrg('Other')).orgId;
    adaId = (await accounts.createUser('ada@example.com')).userId;
    await accounts.addMember(acme, adaId);
    adaKey = await t.app.get(ApiKeyService).createAccountKey(adaId);
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates another personal key with a default org and lists keys without secrets', async () => {
    const res = await call('POST', '/api/v1/account-keys', adaKey.secret, {
      name: 'laptop',
      defaultOrgId: acme,
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { keyId: string; secret: string };
    expect(created).toEqual({
      keyId: expect.stringMatching(/^ak_/),
      secret: expect.stringMatching(/^dpa_/),
      defaultOrgId: acme,
      name: 'laptop',
    });
    const listRes = await call('GET', '/api/v1/account-keys', created.secret);
    const list = (await listRes.json()) as { data: Json[] };
    expect(list.data.map((k) => k.keyId)).toEqual([adaKey.keyId, created.keyId]);
    expect(list.data[1]).toMatchObject({ userId: adaId, defaultOrgId: acme, revokedAt: null });
    expect(JSON.stringify(list)).not.toMatch(/dpa_/);
  });

  it('answers 403 for a default org the caller does not belong to, 422 for bad bodies', async () => {
    const res = await call('POST', '/api/v1/account-keys', adaKey.secret, { defaultOrgId: other });
    expect(res.status).toBe(403);
    const bad = await call('POST', '/api/v1/account-keys', adaKey.secret, { defaultOrgId: '' });
    expect(bad.status).toBe(422);
  });

  it('revokes a key of the caller, which then stops authenticating', async () => {
    const spare = await t.app.get(ApiKeyService).createAccountKey(adaId);
    const res = await call('DELETE', `/api/v1/account-keys/${spare.keyId}`, adaKey.secret);
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).revokedAt).toEqual(expect.any(String));
    expect((await call('GET', '/api/v1/account-keys', spare.secret)).status).toBe(401);
    expect((await call('GET', '/api/v1/account-keys', adaKey.secret)).status).toBe(200);
  });

  it("answers 404 for another user's key and leaves it working", async () => {
    const accounts = t.app.get(AccountsService);
    const bob = await accounts.createUser('bob@example.com');
    const bobKey = await t.app.get(ApiKeyService).createAccountKey(bob.userId);
    const res = await call('DELETE', `/api/v1/account-keys/${bobKey.keyId}`, adaKey.secret);
    expect(res.status).toBe(404);
    expect((await call('GET', '/api/v1/account-keys', bobKey.secret)).status).toBe(200);
  });
});

describe('admin endpoint of a running server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    if (t) await t.close();
  });

  function endpoint(): { url: string; token: string; pid: number } {
    return JSON.parse(fs.readFileSync(path.join(t.dataDir, 'admin.json'), 'utf8'));
  }

  it('publishes DATA_DIR/admin.json readable by its owner only', () => {
    const file = path.join(t.dataDir, 'admin.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(endpoint()).toEqual({ url: t.baseUrl, token: expect.any(String), pid: process.pid });
    expect(endpoint().token.length).toBeGreaterThanOrEqual(32);
  });

  it('runs commands only with the admin token', async () => {
    const { url, token } = endpoint();
    const post = (auth: string | null, name: string, body: unknown) =>
      fetch(`${url}/admin/v1/commands/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify(body),
      });
    for (const auth of [null, `Bearer ${token}x`, `Bearer ${token.slice(1)}`]) {
      const res = await post(auth, 'org.create', { name: 'Nope' });
      expect(res.status).toBe(401);
    }
    expect(await t.app.get(AccountsService).listOrgs()).toEqual([]);
    const ok = await post(`Bearer ${token}`, 'org.create', { name: 'Yes' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ orgId: expect.stringMatching(/^org_/), name: 'Yes' });
    const unknown = await post(`Bearer ${token}`, 'org.destroy', {});
    expect(unknown.status).toBe(404);
    const bad = await post(`Bearer ${token}`, 'member.add', {
      orgId: 'o',
      userId: 'u',
      role: 'god',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: Json }).error.code).toBe('INVALID_ARGUMENTS');
    // Files the server cannot open are refused by name, not answered with a 500 mid-read; a
    // publish without Kafka says so.
    const missing = path.join(t.dataDir, 'missing.ndjson');
    const answers: [number, string][] = [];
    for (const [name, file] of [
      ['usage.import', missing],
      ['usage.import', t.dataDir],
      ['usage.import', 'relative.ndjson'],
      ['usage.publish', missing],
    ] as const) {
      const res = await post(`Bearer ${token}`, name, { file });
      answers.push([res.status, ((await res.json()) as { error: { code: string } }).error.code]);
    }
    const events = path.join(t.dataDir, 'events.ndjson');
    fs.writeFileSync(events, '');
    const publish = await post(`Bearer ${token}`, 'usage.publish', { file: events });
    answers.push([
      publish.status,
      ((await publish.json()) as { error: { code: string } }).error.code,
    ]);
    expect(answers).toEqual([
      [400, 'INVALID_ARGUMENTS'],
      [400, 'INVALID_ARGUMENTS'],
      [400, 'INVALID_ARGUMENTS'],
      [400, 'INVALID_ARGUMENTS'],
      [409, 'KAFKA_NOT_CONFIGURED'],
    ]);
  });

  it('does not accept an account key on the admin endpoint', async () => {
    const accounts = t.app.get(AccountsService);
    const user = await accounts.createUser('eve@example.com');
    const key = await t.app.get(ApiKeyService).createAccountKey(user.userId);
    const res = await fetch(`${endpoint().url}/admin/v1/ping`, {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    expect(res.status).toBe(401);
  });

  it('removes admin.json on shutdown', async () => {
    const file = path.join(t.dataDir, 'admin.json');
    const dataDir = t.dataDir;
    await t.app.close();
    expect(fs.existsSync(file)).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
    t = undefined as unknown as TestApp;
  });
});
