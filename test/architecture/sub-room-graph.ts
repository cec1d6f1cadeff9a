import path from 'node:path';
import { cruise } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

/*
 * The import graph between the sub-rooms of each plane: a sub-room is a second-level folder
 * of src/ (src/<plane>/<room>/, with everything below it). Files directly in src/<plane>/ are
 * the plane's doors and composition root (its Nest module), not a sub-room. Every import
 * counts, type-only ones too: a type shared across rooms couples them as much as a value.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');

/** `processing/jobs` for src/processing/jobs/…; undefined for a file that is in no sub-room. */
export function subRoomOf(file: string): string | undefined {
  const parts = file.split('/');
  if (parts[0] !== 'src' || parts.length < 4) return undefined;
  return `${parts[1]}/${parts[2]}`;
}

/** Edges between two sub-rooms of the same plane, each with the file imports behind it. */
export type SubRoomGraph = Map<string, Map<string, string[]>>;

export function subRoomGraph(imports: readonly { from: string; to: string }[]): SubRoomGraph {
  const graph: SubRoomGraph = new Map();
  for (const { from, to } of imports) {
    const a = subRoomOf(from);
    const b = subRoomOf(to);
    if (a === undefined || b === undefined || a === b) continue;
    if (a.split('/')[0] !== b.split('/')[0]) continue;
    const targets = graph.get(a) ?? new Map<string, string[]>();
    graph.set(a, targets);
    targets.set(b, [...(targets.get(b) ?? []), `${from} -> ${to}`]);
  }
  return graph;
}

/**
 * The import cycles of a graph, as its strongly connected components of more than one room
 * (Tarjan's algorithm), each sorted, with the edges that close them.
 */
export function cycles(graph: SubRoomGraph): { rooms: string[]; edges: string[] }[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (room: string): void => {
    index.set(room, index.size);
    low.set(room, index.get(room)!);
    stack.push(room);
    onStack.add(room);
    for (const next of graph.get(room)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(room, Math.min(low.get(room)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(room, Math.min(low.get(room)!, index.get(next)!));
      }
    }
    if (low.get(room) !== index.get(room)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== room);
    if (component.length > 1) found.push(component.sort());
  };
  const rooms = new Set([...graph.keys(), ...[...graph.values()].flatMap((t) => [...t.keys()])]);
  for (const room of [...rooms].sort()) if (!index.has(room)) visit(room);
  return found
    .map((component) => ({
      rooms: component,
      edges: component.flatMap((from) =>
        [...(graph.get(from) ?? [])]
          .filter(([to]) => component.includes(to))
          .map(([to, files]) => `${from} -> ${to} (${files.length}: ${files[0]})`),
      ),
    }))
    .sort((a, b) => a.rooms[0].localeCompare(b.rooms[0]));
}

/** Every import between the modules of src/, as dependency-cruiser resolves them. */
export async function sourceImports(): Promise<{ from: string; to: string }[]> {
  const previous = process.cwd();
  process.chdir(ROOT);
  try {
    const result = await cruise(
      ['src'],
      {
        doNotFollow: { path: 'node_modules' },
        exclude: { path: '\\.spec\\.ts$' },
        tsPreCompilationDeps: true,
        tsConfig: { fileName: 'tsconfig.json' },
      },
      undefined,
      { tsConfig: extractTSConfig('tsconfig.json') },
    );
    const output = result.output;
    if (typeof output === 'string')
      throw new Error('dependency-cruiser returned text, not modules');
    return output.modules.flatMap((module) =>
      module.dependencies
        .filter((dependency) => dependency.resolved.startsWith('src/'))
        .map((dependency) => ({ from: module.source, to: dependency.resolved })),
    );
  } finally {
    process.chdir(previous);
  }
}
