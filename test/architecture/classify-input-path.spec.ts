import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { sourceImports, subRoomOf } from './sub-room-graph.js';

/*
 * docs/architecture.md lists the stops a classify request's `input` passes from the edge to
 * where its bytes are read. This keeps the list true (files, functions, links) and short.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const MAX_ROOM_CHANGES = 8;

interface Stop {
  room: string;
  file: string;
  fn: string;
}

/** The rows of the "A classify request's input" table. */
function documentedStops(): Stop[] {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
  const start = doc.indexOf("## A classify request's input, from the edge to its bytes");
  expect(start).toBeGreaterThanOrEqual(0);
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  return [...section.matchAll(/^\| \d+ \| `([^`]+)` \| `([^`]+)` \| `([^`]+)` \|$/gm)].map(
    ([, room, file, fn]) => ({ room, file, fn }),
  );
}

describe("a classify request's input, from the edge to its bytes", () => {
  const stops = documentedStops();
  let imports: Set<string>;

  beforeAll(async () => {
    imports = new Set((await sourceImports()).map(({ from, to }) => `${from} -> ${to}`));
  }, 120_000);

  it('is listed, from the request DTO to the reading of the bytes', () => {
    expect(stops.length).toBeGreaterThan(5);
    expect(stops[0].fn).toBe('ClassifyConfigDto');
  });

  it('stops at files that exist, in the room named, defining the function named', () => {
    for (const stop of stops) {
      const source = fs.readFileSync(path.join(ROOT, stop.file), 'utf8');
      expect(`${stop.file}: ${subRoomOf(stop.file)}`).toBe(`${stop.file}: processing/${stop.room}`);
      const defines = new RegExp(
        `(class|function|interface) ${stop.fn}\\b|^\\s+(private |async |public )*${stop.fn}[<(]`,
        'm',
      );
      expect(`${stop.file}: ${defines.test(source)}`).toBe(`${stop.file}: true`);
    }
  });

  it('goes from each stop to the next by an import between their files', () => {
    for (const [i, stop] of stops.slice(1).entries()) {
      const previous = stops[i].file;
      if (previous === stop.file) continue;
      const linked =
        imports.has(`${previous} -> ${stop.file}`) || imports.has(`${stop.file} -> ${previous}`);
      expect(`${previous} <-> ${stop.file}: ${linked}`).toBe(`${previous} <-> ${stop.file}: true`);
    }
  });

  it(`changes room at most ${MAX_ROOM_CHANGES} times`, () => {
    const changes = stops.filter((stop, i) => i > 0 && stop.room !== stops[i - 1].room).length;
    expect(changes).toBeLessThanOrEqual(MAX_ROOM_CHANGES);
  });
});
