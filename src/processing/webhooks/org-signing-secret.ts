import { createHmac, randomBytes } from 'node:crypto';

/** What the derivation signs besides the org id: a secret of this key for nothing else. */
const PURPOSE = 'docproc webhook signing secret';

/**
 * An organization's webhook signing secret as every process holding `key` derives it
 * (WEBHOOK_SIGNING_KEY): the same on each, with nothing stored or exchanged
 * (docs/decisions/0378-webhook-signing-secrets-derived-from-one-key.md).
 */
export function derivedOrgSecret(key: string, orgId: string): string {
  const secret = createHmac('sha256', key).update(`${PURPOSE}\u0000${orgId}`).digest();
  return `whsec_${secret.toString('base64')}`;
}

/** A random signing secret (a hosted endpoint's, or an org's when no key is configured). */
export function randomSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}
