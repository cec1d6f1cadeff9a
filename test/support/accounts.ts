import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import { ApiKeyService } from '../../src/accounts/keys/api-key.service.js';

export interface SeededAccount {
  orgId: string;
  userId: string;
  /** Account (dashboard) key secret. */
  accountKey: string;
  /** Processing key secret of the same org. */
  processingKey: string;
  processingKeyId: string;
}

/** An org with one member (its owner) who holds an account key (default org set) and a processing key. */
export async function seedAccount(
  app: INestApplicationContext,
  name = 'Acme',
): Promise<SeededAccount> {
  const accounts = app.get(AccountsService);
  const keys = app.get(ApiKeyService);
  const org = await accounts.createOrg(name);
  const user = await accounts.createUser(`${randomUUID()}@example.com`);
  await accounts.addMember(org.orgId, user.userId, 'owner');
  const accountKey = await keys.createAccountKey(user.userId, { defaultOrgId: org.orgId });
  const processingKey = await keys.createProcessingKey(org.orgId);
  return {
    orgId: org.orgId,
    userId: user.userId,
    accountKey: accountKey.secret,
    processingKey: processingKey.secret,
    processingKeyId: processingKey.keyId,
  };
}
