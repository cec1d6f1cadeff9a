import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { ApiKeyService } from '../../../src/accounts/keys/api-key.service.js';
import { apiCall } from '../../support/http.js';
import { startTestApp, TestApp } from '../../support/test-app.js';

/**
 * Roles over real HTTP: owners and admins manage an org's processing keys and metadata
 * keys; members read its usage and key lists; outsiders get 403 NOT_A_MEMBER everywhere.
 */
describe('organization roles over HTTP', () => {
  let t: TestApp;
  let org: string;
  const key: Record<'owner' | 'admin' | 'member' | 'outsider', string> = {
    owner: '',
    admin: '',
    member: '',
    outsider: '',
  };

  const call = (method: string, route: string, token?: string, body?: unknown) =>
    apiCall(t.baseUrl, method, route, token, body);

  async function errorCode(res: Response): Promise<string> {
    return ((await res.json()) as { error: { code: string } }).error.code;
  }

  beforeAll(async () => {
    t = await startTestApp();
    const accounts = t.app.get(AccountsService);
    const keys = t.app.get(ApiKeyService);
    org = (await accounts.createOrg('Acme')).orgId;
    const elsewhere = (await accounts.createOrg('Globex')).orgId;
    for (const role of ['owner', 'admin', 'member'] as const) {
      const user = (await accounts.createUser(`${role}@example.com`)).userId;
      await accounts.addMember(org, user, role);
      key[role] = (await keys.createAccountKey(user, { defaultOrgId: org })).secret;
    }
    const outsider = (await accounts.createUser('outsider@example.com')).userId;
    await accounts.addMember(elsewhere, outsider, 'owner');
    key.outsider = (await keys.createAccountKey(outsider)).secret;
  });
  afterAll(async () => {
    await t.close();
  });

  it('lets owners and admins create and revoke processing keys, not members', async () => {
    for (const role of ['owner', 'admin'] as const) {
      const created = await call('POST', `/api/v1/orgs/${org}/processing-keys`, key[role], {
        name: role,
      });
      expect(created.status).toBe(201);
      const { keyId } = (await created.json()) as { keyId: string };
      const revoked = await call(
        'DELETE',
        `/api/v1/orgs/${org}/processing-keys/${keyId}`,
        key[role],
      );
      expect(revoked.status).toBe(200);
    }
    const refused = await call('POST', `/api/v1/orgs/${org}/processing-keys`, key.member, {
      name: 'x',
    });
    expect(refused.status).toBe(403);
    expect(await errorCode(refused)).toBe('INSUFFICIENT_ROLE');
    const { keyId } = (await (
      await call('POST', `/api/v1/orgs/${org}/processing-keys`, key.owner, {})
    ).json()) as { keyId: string };
    const revoke = await call('DELETE', `/api/v1/orgs/${org}/processing-keys/${keyId}`, key.member);
    expect(revoke.status).toBe(403);
    expect(await errorCode(revoke)).toBe('INSUFFICIENT_ROLE');
  });

  it('lets members list keys and metadata keys and read usage, but not enable metadata keys', async () => {
    expect((await call('GET', `/api/v1/orgs/${org}/processing-keys`, key.member)).status).toBe(200);
    expect((await call('GET', `/api/v1/orgs/${org}/metadata-keys`, key.member)).status).toBe(200);
    expect((await call('GET', `/api/v1/usage/export?orgId=${org}`, key.member)).status).toBe(200);
    const enable = await call('POST', `/api/v1/orgs/${org}/metadata-keys`, key.member, {
      key: 'team',
    });
    expect(enable.status).toBe(403);
    expect(await errorCode(enable)).toBe('INSUFFICIENT_ROLE');
    const disable = await call('DELETE', `/api/v1/orgs/${org}/metadata-keys/team`, key.member);
    expect(disable.status).toBe(403);
    const deleteTracking = await call(
      'DELETE',
      `/api/v1/orgs/${org}/metadata-keys/team/tracking`,
      key.member,
    );
    expect(deleteTracking.status).toBe(403);
    expect(await errorCode(deleteTracking)).toBe('INSUFFICIENT_ROLE');
    const asAdmin = await call('POST', `/api/v1/orgs/${org}/metadata-keys`, key.admin, {
      key: 'team',
    });
    expect(asAdmin.status).toBe(201);
  });

  it('answers 403 NOT_A_MEMBER to outsiders on every org route, whatever their role elsewhere', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', `/api/v1/orgs/${org}/processing-keys`],
      ['POST', `/api/v1/orgs/${org}/processing-keys`, {}],
      ['GET', `/api/v1/orgs/${org}/metadata-keys`],
      ['POST', `/api/v1/orgs/${org}/metadata-keys`, { key: 'team' }],
      ['DELETE', `/api/v1/orgs/${org}/metadata-keys/team/tracking`],
      ['GET', `/api/v1/usage/export?orgId=${org}`],
      ['POST', '/api/v1/account-keys', { defaultOrgId: org }],
    ];
    for (const [method, route, body] of routes) {
      const res = await call(method, route, key.outsider, body);
      expect([route, res.status, await errorCode(res)]).toEqual([route, 403, 'NOT_A_MEMBER']);
    }
  });
});
