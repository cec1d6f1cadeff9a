import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { legacyDisableRefusals } from '../../operations/upgrade/legacy-disable.guard.js';
import { databaseQueueWorkers } from '../../config/operations.config.js';
import { ALL_ROLLOUT_KEYS } from '../../config/rollout-keys.js';
import { InFlightTracker } from './in-flight.js';
import { stateLine, WATCHDOG_WARNING_LOG, WorkerWatchdog } from './worker-watchdog.js';

describe(WorkerWatchdog.name, () => {
  it('formats "<unix seconds> <age seconds>" with -1 when idle', () => {
    expect(stateLine(1_700_000_000_900, -1)).toBe('1700000000 -1\n');
    expect(stateLine(1_700_000_000_900, 2_500)).toBe('1700000000 2\n');
  });

  it('writes the oldest age of all sources', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wd-')), 'state');
    const sut = new WorkerWatchdog(
      {
        stateFile: file,
        intervalMs: 5000,
        staleSec: 60,
        stuckThresholdSec: 1800,
        probeEnabled: true,
      },
      [{ oldestInFlightMs: () => -1 }, { oldestInFlightMs: () => 7_000 }],
      'test',
    );
    sut.tick(10_000);
    expect(fs.readFileSync(file, 'utf8')).toBe('10 7\n');
  });

  it('warns when a task reaches 80% of the stuck threshold, not at the next 5 s tick', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wd-')), 'state');
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.useFakeTimers();
    const startedAt = Date.now();
    const sut = new WorkerWatchdog(
      { stateFile: file, intervalMs: 5000, staleSec: 60, stuckThresholdSec: 2, probeEnabled: true },
      [{ oldestInFlightMs: () => Date.now() - startedAt }],
      'test',
    );
    const warnings = () =>
      warn.mock.calls.filter((call) => String(call[1]).startsWith(WATCHDOG_WARNING_LOG));
    try {
      sut.start();
      jest.advanceTimersByTime(1599);
      expect(warnings()).toHaveLength(0);
      jest.advanceTimersByTime(1);
      expect(warnings()).toHaveLength(1);
      // Once per task episode: the next ticks, the task still running, stay quiet.
      jest.advanceTimersByTime(10_000);
      expect(warnings()).toHaveLength(1);
    } finally {
      sut.stop();
      jest.useRealTimers();
      warn.mockRestore();
    }
  });
});

describe(InFlightTracker.name, () => {
  it('keeps a task young across a step of the wall clock', () => {
    const tracker = new InFlightTracker();
    tracker.begin('task');
    const wallClock = Date.now();
    // An NTP step or a resumed VM: the wall clock jumps an hour ahead.
    const now = jest.spyOn(Date, 'now').mockReturnValue(wallClock + 3_600_000);
    try {
      expect(tracker.oldestInFlightMs()).toBeGreaterThanOrEqual(0);
      expect(tracker.oldestInFlightMs()).toBeLessThan(60_000);
    } finally {
      now.mockRestore();
    }
    tracker.end('task');
    expect(tracker.oldestInFlightMs()).toBe(-1);
  });
});

describe('legacy worker rules', () => {
  const off = { enabled: false, priorityCount: 0, gpuEnabled: false, gpuConcurrency: 1 };

  it('runs no cpu loops with every kind off, and keeps the io loops', () => {
    expect(databaseQueueWorkers(off, 2, 8)).toEqual([
      { kind: 'io_worker', queue: 'io', loops: 8, filter: {} },
    ]);
  });

  it('gives each kind its loops and what it may claim', () => {
    const all = { enabled: true, priorityCount: 3, gpuEnabled: true, gpuConcurrency: 2 };
    expect(databaseQueueWorkers(all, 4, 8)).toEqual([
      { kind: 'worker', queue: 'cpu', loops: 4, filter: { deep: 'exclude' } },
      {
        kind: 'priority_worker',
        queue: 'cpu',
        loops: 3,
        filter: { deep: 'exclude', lanes: ['priority'] },
      },
      { kind: 'gpu_worker', queue: 'cpu', loops: 2, filter: { deep: 'only' } },
      { kind: 'io_worker', queue: 'io', loops: 8, filter: {} },
    ]);
  });

  it('lets the worker and priority worker take deep work when no gpu worker is configured', () => {
    const noGpu = { ...off, enabled: true, priorityCount: 1 };
    expect(databaseQueueWorkers(noGpu, 2, 8).slice(0, 2)).toEqual([
      { kind: 'worker', queue: 'cpu', loops: 2, filter: {} },
      { kind: 'priority_worker', queue: 'cpu', loops: 1, filter: { lanes: ['priority'] } },
    ]);
  });

  it('refuses disabling until every ratio is 1.0 and the queue drained', () => {
    const ones = Object.fromEntries(ALL_ROLLOUT_KEYS.map((k) => [k, 1]));
    expect(legacyDisableRefusals(ones, true, 0)).toEqual([]);
    expect(legacyDisableRefusals({ ...ones, split_trainable: 0.5 }, true, 0)).toEqual([
      'rollout ratios below 1.0: ROLLOUT_RATIO_SPLIT_TRAINABLE=0.5',
    ]);
    expect(legacyDisableRefusals(ones, true, 2)[0]).toMatch(/not drained \(2 task/);
    expect(legacyDisableRefusals(ones, false, 0)[0]).toMatch(/REDIS_URL/);
  });
});
