import { describe, expect, it } from '@jest/globals';
import { parseDuckDbSize } from './database.metrics.js';

describe('parseDuckDbSize', () => {
  it.each([
    ['244.1 MiB', Math.round(244.1 * 2 ** 20)],
    ['18.8 GiB', Math.round(18.8 * 2 ** 30)],
    ['97.6 KiB', Math.round(97.6 * 2 ** 10)],
    ['512 bytes', 512],
    ['3.0 GiB', 3 * 2 ** 30],
  ])('reads %s', (text, bytes) => {
    expect(parseDuckDbSize(text)).toBe(bytes);
  });

  it.each(['', 'unlimited', '12 MB', '-1 GiB', 'GiB'])('refuses %j', (text) => {
    expect(parseDuckDbSize(text)).toBeNull();
  });
});
