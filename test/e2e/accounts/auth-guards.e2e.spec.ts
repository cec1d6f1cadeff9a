import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, Module, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountsModule } from '../../../src/accounts/accounts.module.js';
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { AccountAuthGuard } from '../../../src/accounts/auth/account-auth.guard.js';
import { CurrentPrincipal } from '../../../src/accounts/auth/current-principal.decorator.js';
import { ProcessingAuthGuard } from '../../../src/accounts/auth/processing-auth.guard.js';
import { ApiKeyService } from '../../../src/accounts/keys/api-key.service.js';
import type { Principal } from '../../../src/accounts/principal.js';
import { AppModule } from '../../../src/app.module.js';
import { loadConfig } from '../../../src/config/app-config.js';

/** Test-only endpoints behind each guard that echo the principal the guard set. */
@Controller('probe')
class ProbeController {
  @Get('account')
  @UseGuards(AccountAuthGuard)
  account(@CurrentPrincipal() principal: Principal): Principal {
    return principal;
  }

  @Get('processing')
  @UseGuards(ProcessingAuthGuard)
  processing(@CurrentPrincipal() principal: Principal): Principal {
    return principal;
  }
}

interface ProbeApp {
  app: NestFastifyApplication;
  baseUrl: string;
  close(): Promise<void>;
}

/** The real app plus the probe controller, on a loopback port with a fresh DuckDB file. */
async function startProbeApp(env: Record<string, string> = {}): Promise<ProbeApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-auth-'));
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env, DATA_DIR: dataDir });
  @Module({ imports: [AppModule.forRoot(config), AccountsModule], controllers: [ProbeController] })
  class ProbeAppModule {}
  const app = await NestFactory.create<NestFastifyApplication>(
    ProbeAppModule,
    new FastifyAdapter(),
    {
      logger: false,
    },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    app,
    baseUrl: `http://127.0.0.1:${address.port}`,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function get(url: string, token?: string, header?: string): Promise<Response> {
  const authorization = header ?? (token === undefined ? undefined : `Bearer ${token}`);
  return fetch(url, { headers: authorization === undefined ? {} : { authorization } });
}

async function expectUnauthorized(res: Response, message: RegExp): Promise<void> {
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe('Bearer');
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe('UNAUTHORIZED');
  expect(body.error.message).toMatch(message);
}

describe('auth guards over HTTP', () => {
  let t: ProbeApp;
  let orgId: string;
  let userId: string;
  let accountKey: { keyId: string; secret: string };
  let processingKey: { keyId: string; secret: string };

  beforeAll(async () => {
    t = await startProbeApp();
    const accounts = t.app.get(AccountsService);
    const keys = t.app.get(ApiKeyService);
    orgId = (await accounts.createOrg('Acme')).orgId;
    userId = (await accounts.createUser('ada@example.com')).userId;
    await accounts.addMember(orgId, userId);
    accountKey = await keys.createAccountKey(userId, { defaultOrgId: orgId });
    processingKey = await keys.createProcessingKey(orgId, { name: 'ci' });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('AccountAuthGuard', () => {
    it('accepts an account key and exposes its principal', async () => {
      const res = await get(`${t.baseUrl}/probe/account`, accountKey.secret);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        kind: 'account',
        keyId: accountKey.keyId,
        userId,
        defaultOrgId: orgId,
      });
    });

    it('answers 401 with WWW-Authenticate when the key is missing', async () => {
      await expectUnauthorized(
        await get(`${t.baseUrl}/probe/account`),
        /account API key is required/,
      );
    });

    it('answers 401 for a non-bearer Authorization header', async () => {
      await expectUnauthorized(
        await get(`${t.baseUrl}/probe/account`, undefined, `Basic ${accountKey.secret}`),
        /required/,
      );
    });

    it('answers 401 for an invalid key', async () => {
      const forged = accountKey.secret.slice(0, 21) + '0'.repeat(64);
      await expectUnauthorized(
        await get(`${t.baseUrl}/probe/account`, forged),
        /invalid or revoked/,
      );
    });

    it('answers 401 for a processing key, saying which kind is needed', async () => {
      await expectUnauthorized(
        await get(`${t.baseUrl}/probe/account`, processingKey.secret),
        /processing API key/,
      );
    });
  });

  describe('ProcessingAuthGuard', () => {
    it('accepts a processing key and attributes the request to its org', async () => {
      const res = await get(`${t.baseUrl}/probe/processing`, processingKey.secret);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ kind: 'processing', keyId: processingKey.keyId, orgId });
    });

    it('answers 401 without a key while authentication is enabled', async () => {
      await expectUnauthorized(await get(`${t.baseUrl}/probe/processing`), /required/);
    });

    it('answers 401 for an account key', async () => {
      await expectUnauthorized(
        await get(`${t.baseUrl}/probe/processing`, accountKey.secret),
        /account API key/,
      );
    });

    it('answers 401 once the key is revoked', async () => {
      const keys = t.app.get(ApiKeyService);
      const doomed = await keys.createProcessingKey(orgId);
      expect((await get(`${t.baseUrl}/probe/processing`, doomed.secret)).status).toBe(200);
      await keys.revokeProcessingKey(orgId, doomed.keyId);
      await expectUnauthorized(
        await get(`${t.baseUrl}/probe/processing`, doomed.secret),
        /revoked/,
      );
    });
  });
});

describe('ProcessingAuthGuard with AUTH_DISABLED=true', () => {
  let t: ProbeApp;
  beforeAll(async () => {
    t = await startProbeApp({ AUTH_DISABLED: 'true', AUTH_DEFAULT_ORG_ID: 'org_default' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('accepts a request without a key and attributes it to the default org', async () => {
    const res = await get(`${t.baseUrl}/probe/processing`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      kind: 'processing',
      keyId: 'anonymous',
      orgId: 'org_default',
    });
  });

  it('creates the default org so its usage belongs to a real org', async () => {
    const orgs = await t.app.get(AccountsService).listOrgs();
    expect(orgs.map((o) => o.orgId)).toContain('org_default');
  });

  it('still refuses a key that is present but invalid', async () => {
    await expectUnauthorized(
      await get(`${t.baseUrl}/probe/processing`, 'dpk_0123456789abcdef_' + '0'.repeat(64)),
      /invalid/,
    );
  });

  it('still accepts a valid key and attributes it to the key org', async () => {
    const org = await t.app.get(AccountsService).createOrg('Other');
    const key = await t.app.get(ApiKeyService).createProcessingKey(org.orgId);
    const res = await get(`${t.baseUrl}/probe/processing`, key.secret);
    expect(await res.json()).toMatchObject({ orgId: org.orgId, keyId: key.keyId });
  });

  it('does not relax the account guard', async () => {
    await expectUnauthorized(await get(`${t.baseUrl}/probe/account`), /required/);
  });
});
