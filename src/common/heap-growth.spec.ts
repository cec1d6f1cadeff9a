import v8 from 'node:v8';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { loadConfig } from '../config/app-config.js';
import { applyHeapGrowth } from './heap-growth.js';

describe(applyHeapGrowth.name, () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('collects after a 20 % step by default', () => {
    const setFlags = jest.spyOn(v8, 'setFlagsFromString').mockImplementation(() => undefined);
    applyHeapGrowth(loadConfig({}).heapGrowingPercent);
    expect(setFlags).toHaveBeenCalledWith('--heap-growing-percent=20');
  });

  it("leaves V8's own growth factor alone at 0", () => {
    const setFlags = jest.spyOn(v8, 'setFlagsFromString').mockImplementation(() => undefined);
    applyHeapGrowth(loadConfig({ HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent);
    expect(setFlags).not.toHaveBeenCalled();
  });

  it('sets the growth step HEAP_GROWING_PERCENT names', () => {
    const setFlags = jest.spyOn(v8, 'setFlagsFromString').mockImplementation(() => undefined);
    applyHeapGrowth(loadConfig({ HEAP_GROWING_PERCENT: '30' }).heapGrowingPercent);
    expect(setFlags).toHaveBeenCalledWith('--heap-growing-percent=30');
  });

  it('refuses a negative or absurd step at start-up', () => {
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: '-5' })).toThrow(/HEAP_GROWING_PERCENT/);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: '1000' })).toThrow(/HEAP_GROWING_PERCENT/);
  });
});
