import { describe, expect, it } from '@jest/globals';
import type { ExecutionContext } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { loadConfig } from '../../config/app-config.js';
import { issueToken } from '../keys/api-key-token.js';
import type { ApiKeyService } from '../keys/api-key.service.js';
import type { AccountPrincipal, ProcessingPrincipal } from '../principal.js';
import { AccountAuthGuard } from './account-auth.guard.js';
import type { AuthenticatedRequest } from './bearer-token.js';
import { ANONYMOUS_KEY_ID, ProcessingAuthGuard } from './processing-auth.guard.js';
import type { SessionCookieService } from './session-cookie.service.js';

const processingKey = issueToken('processing').secret;
const accountKey = issueToken('account').secret;
const orgKey: ProcessingPrincipal = { kind: 'processing', keyId: 'pk_1', orgId: 'org-1' };
const userKey: AccountPrincipal = {
  kind: 'account',
  keyId: 'ak_1',
  userId: 'user-1',
  defaultOrgId: null,
};

/** Keys: only `processingKey` and `accountKey` are valid (and not revoked). */
const keys = {
  verifyProcessingKey: (token: string) => Promise.resolve(token === processingKey ? orgKey : null),
  verifyAccountKey: (token: string) => Promise.resolve(token === accountKey ? userKey : null),
} as unknown as ApiKeyService;

function context(authorization?: string): { ctx: ExecutionContext; req: AuthenticatedRequest } {
  const req = {
    headers: authorization === undefined ? {} : { authorization },
  } as AuthenticatedRequest;
  const ctx = { switchToHttp: () => ({ getRequest: () => req }) } as unknown as ExecutionContext;
  return { ctx, req };
}

/** The 401 a guard throws, as [status, message]; fails when it lets the request through. */
async function refusal(
  guard: { canActivate(c: ExecutionContext): Promise<boolean> },
  auth?: string,
) {
  const error = await guard.canActivate(context(auth).ctx).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const body = (error as ApiError).getResponse() as { error: { message: string } };
  return [(error as ApiError).getStatus(), body.error.message] as const;
}

describe(ProcessingAuthGuard.name, () => {
  const strict = new ProcessingAuthGuard(keys, loadConfig({}));
  const open = new ProcessingAuthGuard(
    keys,
    loadConfig({ AUTH_DISABLED: 'true', AUTH_DEFAULT_ORG_ID: 'default-org' }),
  );

  it('lets a valid processing key through as its org', async () => {
    const { ctx, req } = context(`Bearer ${processingKey}`);
    expect(await strict.canActivate(ctx)).toBe(true);
    expect(req.principal).toEqual(orgKey);
  });

  it('answers 401 without a key, with a malformed header, or with an unknown key', async () => {
    expect(await refusal(strict)).toEqual([401, expect.stringMatching(/is required/)]);
    expect(await refusal(strict, `Basic ${processingKey}`)).toEqual([
      401,
      expect.stringMatching(/is required/),
    ]);
    expect(await refusal(strict, `Bearer ${issueToken('processing').secret}`)).toEqual([
      401,
      'The processing API key is invalid or revoked',
    ]);
  });

  it('names the mistake when an account key is sent to the processing API', async () => {
    expect(await refusal(strict, `Bearer ${accountKey}`)).toEqual([
      401,
      'This is an account API key; document processing needs a processing API key',
    ]);
  });

  it('with AUTH_DISABLED, bills a keyless request to AUTH_DEFAULT_ORG_ID', async () => {
    const { ctx, req } = context();
    expect(await open.canActivate(ctx)).toBe(true);
    expect(req.principal).toEqual({
      kind: 'processing',
      keyId: ANONYMOUS_KEY_ID,
      orgId: 'default-org',
    });
  });

  it('with AUTH_DISABLED, still refuses a key that is sent but invalid', async () => {
    expect(await refusal(open, `Bearer ${issueToken('processing').secret}`)).toEqual([
      401,
      'The processing API key is invalid or revoked',
    ]);
    expect(await refusal(open, 'Bearer')).toEqual([401, expect.stringMatching(/is required/)]);
  });
});

describe(AccountAuthGuard.name, () => {
  const noSession = {
    authenticate: () => Promise.resolve(null),
  } as unknown as SessionCookieService;

  it('lets a valid account key through as its user', async () => {
    const { ctx, req } = context(`Bearer ${accountKey}`);
    expect(await new AccountAuthGuard(keys, noSession).canActivate(ctx)).toBe(true);
    expect(req.principal).toEqual(userKey);
  });

  it('names the mistake when a processing key is sent to the account API', async () => {
    expect(await refusal(new AccountAuthGuard(keys, noSession), `Bearer ${processingKey}`)).toEqual(
      [401, 'This is a processing API key; the account API needs a personal account API key'],
    );
  });

  it('takes the session cookie only when no Authorization header is sent', async () => {
    const cookie = {
      authenticate: () => Promise.resolve({ principal: userKey }),
    } as unknown as SessionCookieService;
    const guard = new AccountAuthGuard(keys, cookie);
    const { ctx, req } = context();
    expect(await guard.canActivate(ctx)).toBe(true);
    expect(req.principal).toEqual(userKey);
    // A bad header is not rescued by a good cookie: the client sent a key, and it is wrong.
    expect(await refusal(guard, 'Bearer nope')).toEqual([
      401,
      'The account API key is invalid or revoked',
    ]);
  });

  it('answers 401 without a key or session', async () => {
    expect(await refusal(new AccountAuthGuard(keys, noSession))).toEqual([
      401,
      expect.stringMatching(/account API key is required/),
    ]);
  });
});
