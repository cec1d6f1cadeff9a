import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { capRefusal, keysToTrack, type NewMetadataKey } from './metadata-key-cap.js';

const key = (name: string, events = 1, enabled = false): NewMetadataKey => ({
  key: name,
  events,
  enabled,
});

describe('cap on the metadata keys an org is broken out by', () => {
  it('tracks every new key while the org has places left', () => {
    expect(keysToTrack(3, [key('team'), key('region')], 5)).toEqual({
      tracked: ['region', 'team'],
      untracked: [],
    });
  });

  it('gives the last places to the keys most events carry, then in key order', () => {
    const candidates = [key('k2'), key('k1'), key('team', 40), key('k0'), key('region', 7)];
    expect(keysToTrack(96, candidates, 100)).toEqual({
      tracked: ['team', 'region', 'k0', 'k1'],
      untracked: ['k2'],
    });
  });

  it('leaves every new key out once the org holds the cap, or more after the cap was lowered', () => {
    expect(keysToTrack(100, [key('team', 50)], 100)).toEqual({
      tracked: [],
      untracked: ['team'],
    });
    expect(keysToTrack(120, [key('team', 50)], 100).untracked).toEqual(['team']);
  });

  it('tracks an enabled key at the cap: enabling took its place', () => {
    expect(keysToTrack(100, [key('new'), key('cost_center', 1, true)], 100)).toEqual({
      tracked: ['cost_center'],
      untracked: ['new'],
    });
  });

  it('never gives more places than are left, whatever the keys and the order they come in', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 20 }),
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 30, maxLength: 30 }),
        (holds, cap, names, events) => {
          const candidates = names.map((name, i) => key(name, events[i]));
          const { tracked, untracked } = keysToTrack(holds, candidates, cap);
          expect(tracked.length).toBe(Math.min(names.length, Math.max(0, cap - holds)));
          expect([...tracked, ...untracked].sort()).toEqual([...names].sort());
          const reversed = keysToTrack(holds, [...candidates].reverse(), cap);
          expect(reversed.tracked).toEqual(tracked);
        },
      ),
    );
  });

  it('refuses enabling a key the org does not hold once it holds the cap, naming key and cap', () => {
    expect(capRefusal('batch', 99, false, 100)).toBeNull();
    expect(capRefusal('team', 100, true, 100)).toBeNull();
    expect(capRefusal('batch', 100, false, 100)).toBe(
      'metadata key "batch" cannot be enabled: the organization\'s usage is already broken out ' +
        'by 100 metadata keys, the limit (100); jobs keep the key in their metadata and ' +
        'webhooks, but usage is not grouped by it',
    );
  });
});
