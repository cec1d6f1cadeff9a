import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
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

const ROOT = path.resolve(import.meta.dirname, '../..');

/** .dependency-cruiser.floors.cjs: each plane's floors of sub-rooms, lowest first. */
async function floors(): Promise<Record<string, string[][]>> {
  const require = createRequire(import.meta.url);
  return require('../../.dependency-cruiser.floors.cjs') as Record<string, string[][]>;
}

/** The row docs/architecture.md shows for a plane's floors. */
function floorRow(plane: string, planeFloors: string[][]): string {
  const shown = planeFloors.map((floor) => floor.map((room) => `\`${room}\``).join(', '));
  return `| \`${plane}\` | ${shown.join(' → ')} |`;
}

describe('sub-rooms of each plane', () => {
  let graph: SubRoomGraph;

  beforeAll(async () => {
    graph = subRoomGraph(await sourceImports());
  }, 120_000);

  it('sees the imports between sub-rooms', () => {
    expect(graph.get('documents/executors')?.has('documents/readers')).toBe(true);
    expect(graph.get('usage/ingestion')?.has('usage/core')).toBe(true);
    expect(graph.get('processing/jobs')?.has('processing/core')).toBe(true);
  });

  it('form no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('each stand on a floor of .dependency-cruiser.floors.cjs, which lists no other', async () => {
    const declared = Object.entries(await floors()).flatMap(([plane, planeFloors]) =>
      planeFloors.flat().map((room) => `${plane}/${room}`),
    );
    const present = fs
      .readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
      .filter((plane) => plane.isDirectory())
      .flatMap((plane) =>
        fs
          .readdirSync(path.join(ROOT, 'src', plane.name), { withFileTypes: true })
          .filter((room) => room.isDirectory())
          .map((room) => `${plane.name}/${room.name}`),
      );
    expect([...declared].sort()).toEqual([...present].sort());
  });

  it('are drawn in docs/architecture.md as the floors state them', async () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const rows = Object.entries(await floors()).map(([plane, planeFloors]) =>
      floorRow(plane, planeFloors),
    );
    expect(rows.filter((row) => !doc.includes(row))).toEqual([]);
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
