import { describe, expect, it } from '@jest/globals';
import { PriorityReserve } from './priority-reserve.js';

/** A reserve on a clock the spec moves. */
function reserveOf(loops: number, reserved: number, holdMs = 1_000) {
  const clock = { now: 0 };
  return { clock, reserve: new PriorityReserve(loops, reserved, holdMs, () => clock.now) };
}

/** How many claims in a row may take standard or batch work. */
function admitted(reserve: PriorityReserve, tries: number): number {
  let n = 0;
  for (let i = 0; i < tries; i++) if (reserve.admitLower()) n++;
  return n;
}

describe(PriorityReserve.name, () => {
  it('lets standard work take every loop while no priority work was seen', () => {
    const { reserve } = reserveOf(3, 1);
    expect(reserve.holdsFor()).toBeNull();
    expect(admitted(reserve, 5)).toBe(3);
  });

  it('keeps the reserved loops from standard work within the hold after priority work', () => {
    const { reserve } = reserveOf(3, 1);
    reserve.sawPriorityWork();
    expect(admitted(reserve, 5)).toBe(2);
    reserve.releaseLowerLane();
    expect(reserve.admitLower()).toBe(true);
    expect(reserve.admitLower()).toBe(false);
  });

  it('gives every loop back to standard work once the hold lapses, and holds again on new priority work', () => {
    const { clock, reserve } = reserveOf(2, 1, 1_000);
    reserve.sawPriorityWork();
    clock.now = 400;
    expect(reserve.holdsFor()).toBe(600);
    expect(admitted(reserve, 3)).toBe(1);
    clock.now = 1_000;
    expect(reserve.holdsFor()).toBeNull();
    expect(admitted(reserve, 3)).toBe(1);
    reserve.sawPriorityWork();
    expect(reserve.admitLower()).toBe(false);
  });

  it('never keeps every loop: standard work always has one', () => {
    const { reserve } = reserveOf(2, 5);
    reserve.sawPriorityWork();
    expect(admitted(reserve, 3)).toBe(1);
    const single = reserveOf(1, 1).reserve;
    single.sawPriorityWork();
    expect(single.holdsFor()).toBeNull();
    expect(admitted(single, 2)).toBe(1);
  });

  it('reserves nothing at 0', () => {
    const { reserve } = reserveOf(2, 0);
    reserve.sawPriorityWork();
    expect(reserve.holdsFor()).toBeNull();
    expect(admitted(reserve, 3)).toBe(2);
  });
});
