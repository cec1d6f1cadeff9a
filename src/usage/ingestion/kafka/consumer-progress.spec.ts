import { describe, expect, it } from '@jest/globals';
import { ConsumerProgress } from './consumer-progress.js';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const watermarks = (...highs: number[]) =>
  new Map(highs.map((high, partition) => [partition, { high, low: 0 }]));

describe(ConsumerProgress.name, () => {
  it('is ready while idle without lag, however long since the last batch', () => {
    const c = clock();
    const sut = new ConsumerProgress(10_000, c.now);
    sut.onGroupJoin([0, 1]);
    c.advance(60_000);
    sut.onLagMeasured(watermarks(0, 0), new Map());
    expect(sut.readiness().ready).toBe(true);
  });

  it('fails when its partitions have lag and nothing was written for the stall timeout', () => {
    const c = clock();
    const sut = new ConsumerProgress(10_000, c.now);
    sut.onGroupJoin([0, 1]);
    sut.onBatchWritten(0, 5);
    sut.onLagMeasured(watermarks(5, 0), new Map());
    c.advance(9_000);
    sut.onLagMeasured(watermarks(8, 0), new Map([[0, 5]]));
    expect(sut.readiness()).toMatchObject({ ready: true, detail: { lag: 3 } });
    c.advance(2_000);
    sut.onLagMeasured(watermarks(8, 0), new Map([[0, 5]]));
    expect(sut.readiness()).toMatchObject({
      ready: false,
      detail: { lag: 3, reason: expect.stringMatching(/no progress for 11s/) },
    });
    sut.onBatchWritten(0, 8);
    expect(sut.readiness().ready).toBe(true);
  });

  it('ignores lag of partitions another member owns', () => {
    const c = clock();
    const sut = new ConsumerProgress(1_000, c.now);
    sut.onGroupJoin([1]);
    c.advance(5_000);
    const lag = sut.onLagMeasured(watermarks(100, 0), new Map([[0, 10]]));
    expect(lag[0]).toEqual({ partition: 0, highWatermark: 100, position: 10, lag: 90 });
    expect(sut.readiness().ready).toBe(true);
  });

  it('uses the larger of what it wrote and what the group committed as the position', () => {
    const sut = new ConsumerProgress(1_000, clock().now);
    sut.onBatchWritten(0, 40);
    const [p] = sut.onLagMeasured(watermarks(50), new Map([[0, 30]]));
    expect(p).toMatchObject({ position: 40, lag: 10 });
  });

  it('gives a new assignment a full window after a rebalance', () => {
    const c = clock();
    const sut = new ConsumerProgress(10_000, c.now);
    sut.onGroupJoin([0]);
    sut.onLagMeasured(watermarks(10), new Map());
    c.advance(9_000);
    sut.onGroupJoin([0]);
    c.advance(9_000);
    sut.onLagMeasured(watermarks(10), new Map());
    expect(sut.readiness().ready).toBe(true);
  });

  it('turns unready after twice the stall timeout without progress however often it rebalances', () => {
    const c = clock();
    const sut = new ConsumerProgress(10_000, c.now);
    sut.onGroupJoin([0]);
    sut.onLagMeasured(watermarks(10), new Map());
    // A rebalance every 5 s, each granting a fresh window; the lag never moves.
    for (let elapsed = 5_000; elapsed <= 20_000; elapsed += 5_000) {
      c.advance(5_000);
      if (elapsed % 10_000 === 0) sut.onGroupJoin([0]);
      else sut.onRebalancing();
      sut.onLagMeasured(watermarks(10), new Map());
      expect(sut.readiness().ready).toBe(true);
    }
    c.advance(1_000);
    sut.onReplaced();
    sut.onLagMeasured(watermarks(10), new Map());
    expect(sut.readiness()).toMatchObject({
      ready: false,
      detail: { lag: 10, reason: expect.stringMatching(/no progress for 21s .*rebalancing/) },
    });
    sut.onBatchWritten(0, 4);
    expect(sut.readiness().ready).toBe(true);
  });

  it('fails at once on a crash kafkajs will not restart, and on a stop', () => {
    const crashed = new ConsumerProgress(10_000, clock().now);
    crashed.onCrash(new Error('boom'), false);
    expect(crashed.readiness()).toMatchObject({ ready: false, detail: { lastError: 'boom' } });
    const restarting = new ConsumerProgress(10_000, clock().now);
    restarting.onCrash(new Error('blip'), true);
    expect(restarting.readiness().ready).toBe(true);
    const stopped = new ConsumerProgress(10_000, clock().now);
    stopped.onStop();
    expect(stopped.readiness().ready).toBe(false);
  });

  it('is stalled only when joined, lagging, and neither writing nor fetching for the stall timeout while lag was measurable', () => {
    const c = clock();
    const sut = new ConsumerProgress(10_000, c.now);
    sut.onLagMeasured(watermarks(50), new Map([[0, 10]]));
    c.advance(11_000);
    sut.onLagMeasured(watermarks(50), new Map([[0, 10]]));
    expect(sut.stalled()).toBe(false); // never joined: kafkajs is still starting it
    sut.onGroupJoin([0]);
    sut.onFetch();
    c.advance(11_000);
    sut.onLagMeasured(watermarks(50), new Map([[0, 10]]));
    expect(sut.stalled()).toBe(true);
    sut.onFetch();
    expect(sut.stalled()).toBe(false); // fetching: a slow consumer, not a stuck one
    c.advance(11_000);
    sut.onLagUnmeasurable(); // the broker went away: kafkajs rides that out
    c.advance(1_000);
    sut.onLagMeasured(watermarks(50), new Map([[0, 10]]));
    expect(sut.stalled()).toBe(false);
    c.advance(10_001);
    sut.onLagMeasured(watermarks(50), new Map([[0, 10]]));
    expect(sut.stalled()).toBe(true);
    sut.onReplaced();
    expect(sut.stalled()).toBe(false);
    expect(sut.state).toBe('restarting');
  });

  it('is not stalled without lag however long it idles', () => {
    const c = clock();
    const sut = new ConsumerProgress(10_000, c.now);
    sut.onGroupJoin([0]);
    sut.onLagMeasured(watermarks(10), new Map([[0, 10]]));
    c.advance(60_000);
    sut.onLagMeasured(watermarks(10), new Map([[0, 10]]));
    expect(sut.stalled()).toBe(false);
  });

  it('fails when lag has not been measurable for the stall timeout (broker unreachable)', () => {
    const c = clock();
    const sut = new ConsumerProgress(10_000, c.now);
    c.advance(10_001);
    expect(sut.readiness()).toMatchObject({
      ready: false,
      detail: { reason: expect.stringMatching(/lag not measurable/) },
    });
  });
});
