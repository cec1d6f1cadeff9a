import { Logger } from '@nestjs/common';
import { describe, expect, it, jest } from '@jest/globals';
import { ThrottledWarning } from './throttled-warning.js';

describe(ThrottledWarning.name, () => {
  it('logs the first error, then one line per interval with the count left out', () => {
    const logger = new Logger('test');
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    let now = 1_000;
    const sut = new ThrottledWarning(logger, 'worker error', 30_000, () => now);
    const error = new Error('connect ECONNREFUSED');

    sut.warn(error, { queue: 'cpu' });
    for (let i = 0; i < 5; i += 1) {
      now += 1_000;
      sut.warn(error, { queue: 'cpu' });
    }
    now += 30_000;
    sut.warn(error, { queue: 'io' });

    expect(warn.mock.calls).toEqual([
      [{ queue: 'cpu', err: error, similarErrorsNotLogged: 0 }, 'worker error'],
      [{ queue: 'io', err: error, similarErrorsNotLogged: 5 }, 'worker error'],
    ]);
  });
});
