import { describe, expect, it } from '@jest/globals';
import { type ReadinessReport, ReadinessService } from './readiness.service.js';

const check = (name: string, report: () => ReadinessReport) => ({ name, readiness: report });

describe(ReadinessService.name, () => {
  it('is ready with no checks registered', () => {
    expect(new ReadinessService().evaluate()).toEqual({ ready: true, checks: {} });
  });

  it('is ready only while every check is, and shows each check by name', () => {
    const sut = new ReadinessService();
    let consumerReady = true;
    sut.register(check('usage_sink', () => ({ ready: true, detail: { state: 'up' } })));
    sut.register(
      check('usageConsumer', () => ({
        ready: consumerReady,
        detail: { lag: consumerReady ? 0 : 30 },
      })),
    );
    expect(sut.evaluate().ready).toBe(true);
    consumerReady = false;
    expect(sut.evaluate()).toEqual({
      ready: false,
      checks: {
        usage_sink: { ready: true, detail: { state: 'up' } },
        usageConsumer: { ready: false, detail: { lag: 30 } },
      },
    });
  });

  it('asks every check on each evaluation (a failing one does not hide the rest)', () => {
    const sut = new ReadinessService();
    const asked: string[] = [];
    for (const name of ['a', 'b', 'c'])
      sut.register(
        check(name, () => {
          asked.push(name);
          return { ready: name !== 'a', detail: {} };
        }),
      );
    expect(Object.keys(sut.evaluate().checks)).toEqual(['a', 'b', 'c']);
    expect(asked).toEqual(['a', 'b', 'c']);
  });

  it('replaces a check registered again under its name, and forgets an unregistered one', () => {
    const sut = new ReadinessService();
    sut.register(check('queue', () => ({ ready: false, detail: { v: 1 } })));
    sut.register(check('queue', () => ({ ready: true, detail: { v: 2 } })));
    expect(sut.evaluate()).toEqual({
      ready: true,
      checks: { queue: { ready: true, detail: { v: 2 } } },
    });
    sut.register(check('drain', () => ({ ready: false, detail: {} })));
    sut.unregister('drain');
    expect(sut.evaluate().ready).toBe(true);
  });
});
