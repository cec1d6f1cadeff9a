import { describe, expect, it } from '@jest/globals';
import { identifierLikeWhenIngesting, ingestionParameters } from './cardinality-rule.js';

const rule = {
  maxDistinctValues: 1000,
  minEventsForRatio: 200,
  maxDistinctRatio: 0.5,
  maxKeysPerOrg: 100,
};

describe('identifier-like metadata key rule', () => {
  it('gives ingestion its SQL parameters in the order the statement uses them', () => {
    expect(ingestionParameters(rule)).toEqual([1000, 200, 0.5]);
  });

  it('judges the ratio only from METADATA_KEY_MIN_EVENTS events on', () => {
    expect(identifierLikeWhenIngesting(rule, { eventCount: 199, distinctValues: 199 })).toBeNull();
    expect(identifierLikeWhenIngesting(rule, { eventCount: 200, distinctValues: 100 })).toBeNull();
    expect(identifierLikeWhenIngesting(rule, { eventCount: 200, distinctValues: 101 })).toBe(
      'has 101 distinct values in 200 events',
    );
  });

  it('refuses a key at METADATA_KEY_MAX_DISTINCT values whatever its events', () => {
    expect(identifierLikeWhenIngesting(rule, { eventCount: 5000, distinctValues: 1000 })).toBe(
      'has 1000 distinct values (limit 1000)',
    );
  });
});
