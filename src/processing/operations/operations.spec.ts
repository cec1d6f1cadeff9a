import { describe, expect, it } from '@jest/globals';
import { isDeepWork } from './operations.js';

describe(isDeepWork.name, () => {
  it('marks Deep Classify, deep extract and deep split as deep', () => {
    expect(isDeepWork('Classify', { model: 'accurate' })).toBe(true);
    expect(isDeepWork('Extract', { settings: { deep_extract: true } })).toBe(true);
    expect(isDeepWork('Split', { settings: { deep_split: true } })).toBe(true);
  });

  it('leaves default models, plain extract/split and parse to the other workers', () => {
    expect(isDeepWork('Classify', { model: 'default' })).toBe(false);
    expect(isDeepWork('Classify', {})).toBe(false);
    expect(isDeepWork('Extract', { settings: { deep_extract: false } })).toBe(false);
    expect(isDeepWork('Extract', { settings: { deep_split: true } })).toBe(false);
    expect(isDeepWork('Split', { settings: null })).toBe(false);
    expect(isDeepWork('Parse', { model: 'accurate', settings: { deep_extract: true } })).toBe(
      false,
    );
  });
});
