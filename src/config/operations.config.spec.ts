import { describe, expect, it } from '@jest/globals';
import { loadConfig } from './app-config.js';
import { ConfigError } from './config-error.js';

describe('operations configuration', () => {
  const redis = { REDIS_URL: 'redis://127.0.0.1:6379' };

  it('reconciles the new queue every 30 s by default', () => {
    expect(loadConfig(redis).operations.redis?.reconcileIntervalMs).toBe(30_000);
  });

  it('reads REDIS_RECONCILE_INTERVAL_MS from the environment it is given', () => {
    const config = loadConfig({ ...redis, REDIS_RECONCILE_INTERVAL_MS: '250' });
    expect(config.operations.redis?.reconcileIntervalMs).toBe(250);
  });

  it.each(['abc', '0', '-5', '1.5', '3600001'])(
    'refuses REDIS_RECONCILE_INTERVAL_MS=%s naming the variable',
    (value) => {
      const load = () => loadConfig({ ...redis, REDIS_RECONCILE_INTERVAL_MS: value });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(/REDIS_RECONCILE_INTERVAL_MS/);
    },
  );
});
