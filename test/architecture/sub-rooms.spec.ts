import { beforeAll, describe, expect, it } from '@jest/globals';
import {
  cycles,
  sourceImports,
  subRoomGraph,
  subRoomOf,
  type SubRoomGraph,
} from './sub-room-graph.js';

/*
 * Inside each plane the sub-rooms (src/<plane>/<room>/) import one way too: no cycle between
 * them, so each plane can be read floor by floor (docs/architecture.md).
 */

/** The sub-rooms of processing still in one cycle; a room that leaves it is taken off. */
const PROCESSING_CYCLE = [
  'processing/admission',
  'processing/inputs',
  'processing/jobs',
  'processing/outbox',
  'processing/queue',
  'processing/webhooks',
];

describe('sub-rooms of each plane', () => {
  let graph: SubRoomGraph;

  beforeAll(async () => {
    graph = subRoomGraph(await sourceImports());
  }, 120_000);

  it('sees the imports between sub-rooms', () => {
    expect(graph.get('documents/executors')?.has('documents/readers')).toBe(true);
    expect(graph.get('usage/ingestion')?.has('usage/core')).toBe(true);
  });

  it('form no import cycle, but for the one left in processing, which may only shrink', () => {
    const found = cycles(graph);
    expect(found.filter((cycle) => !cycle.rooms[0].startsWith('processing/'))).toEqual([]);
    const processing = found.filter((cycle) => cycle.rooms[0].startsWith('processing/'));
    expect(processing.length).toBeLessThanOrEqual(1);
    const outside = processing
      .flatMap((cycle) => cycle.rooms)
      .filter((room) => !PROCESSING_CYCLE.includes(room));
    expect(outside).toEqual([]);
  });
});

describe('the cycle finder', () => {
  it('names a room as the plane and its second-level folder', () => {
    expect(subRoomOf('src/processing/queue/redis/bull-queue.driver.ts')).toBe('processing/queue');
    expect(subRoomOf('src/processing/processing.module.ts')).toBeUndefined();
    expect(subRoomOf('test/e2e/a.ts')).toBeUndefined();
  });

  it('finds each cycle once with the edges that close it, and ignores one-way imports', () => {
    const found = cycles(
      subRoomGraph([
        { from: 'src/p/a/x.ts', to: 'src/p/b/y.ts' },
        { from: 'src/p/b/y.ts', to: 'src/p/c/z.ts' },
        { from: 'src/p/c/z.ts', to: 'src/p/a/w.ts' },
        { from: 'src/p/c/z.ts', to: 'src/p/d/v.ts' },
        { from: 'src/q/e/x.ts', to: 'src/q/f/y.ts' },
        { from: 'src/q/a/x.ts', to: 'src/p/a/x.ts' },
        { from: 'src/p/a/x.ts', to: 'src/q/a/x.ts' },
      ]),
    );
    expect(found.map((cycle) => cycle.rooms)).toEqual([['p/a', 'p/b', 'p/c']]);
    expect(found[0].edges).toHaveLength(3);
  });
});
