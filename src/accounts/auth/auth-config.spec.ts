import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../config/app-config.js';
import { ConfigError } from '../../config/config-error.js';

describe('auth configuration', () => {
  it('keeps authentication on by default', () => {
    const config = loadConfig({});
    expect(config.authDisabled).toBe(false);
    expect(config.defaultOrgId).toBeNull();
  });

  it('fails fast naming AUTH_DEFAULT_ORG_ID when auth is disabled without it', () => {
    expect(() => loadConfig({ AUTH_DISABLED: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ AUTH_DISABLED: 'true' })).toThrow(/AUTH_DEFAULT_ORG_ID/);
  });

  it('rejects a malformed default org id and a non-boolean AUTH_DISABLED', () => {
    expect(() => loadConfig({ AUTH_DISABLED: 'true', AUTH_DEFAULT_ORG_ID: 'a b' })).toThrow(
      /AUTH_DEFAULT_ORG_ID/,
    );
    expect(() => loadConfig({ AUTH_DISABLED: 'maybe' })).toThrow(/AUTH_DISABLED/);
  });

  it('reads the default org when auth is disabled', () => {
    const config = loadConfig({ AUTH_DISABLED: '1', AUTH_DEFAULT_ORG_ID: 'org_demo' });
    expect(config).toMatchObject({ authDisabled: true, defaultOrgId: 'org_demo' });
  });
});
