import { describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { derivedOrgSecret, randomSecret } from './org-signing-secret.js';

const KEY = 'k'.repeat(32);

describe('derivedOrgSecret', () => {
  it('gives an org the same secret wherever the same key derives it', () => {
    expect(derivedOrgSecret(KEY, 'org_a')).toBe(derivedOrgSecret(`${'k'.repeat(31)}k`, 'org_a'));
  });

  it('gives each org and each key its own secret', () => {
    const secrets = new Set([
      derivedOrgSecret(KEY, 'org_a'),
      derivedOrgSecret(KEY, 'org_b'),
      derivedOrgSecret(`${KEY}x`, 'org_a'),
    ]);
    expect(secrets.size).toBe(3);
  });

  it('is a standard-webhooks secret: a message signed with it verifies, and not with another', () => {
    const secret = derivedOrgSecret(KEY, 'org_a');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const payload = '{"type":"usage.alert"}';
    const timestamp = new Date();
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('msg_1', timestamp, payload),
    };
    expect(() => new Webhook(secret).verify(payload, headers)).not.toThrow();
    expect(() => new Webhook(randomSecret()).verify(payload, headers)).toThrow();
  });
});
