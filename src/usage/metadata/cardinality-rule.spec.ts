import { describe, expect, it } from '@jest/globals';
import {
  ENABLE_MIN_EVENTS,
  identifierLikeWhenEnabling,
  ingestionParameters,
} from './cardinality-rule.js';

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

  it('refuses enabling a mostly distinct key once it has a few dozen events', () => {
    expect(
      identifierLikeWhenEnabling(rule, {
        eventCount: ENABLE_MIN_EVENTS,
        distinctValues: ENABLE_MIN_EVENTS,
      }),
    ).toBe(`has ${ENABLE_MIN_EVENTS} distinct values in ${ENABLE_MIN_EVENTS} events`);
  });

  it('lets a key through with too few events or a low distinct ratio', () => {
    expect(identifierLikeWhenEnabling(rule, { eventCount: 19, distinctValues: 19 })).toBeNull();
    expect(identifierLikeWhenEnabling(rule, { eventCount: 100, distinctValues: 50 })).toBeNull();
    expect(
      identifierLikeWhenEnabling(rule, { eventCount: 100, distinctValues: 51 }),
    ).not.toBeNull();
  });
});
