import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';

/*
 * The structural rules a newcomer relies on (docs/architecture.md). Import direction and
 * cycles between the rooms of src/ are checked by dependency-cruiser (`npm run
 * lint:architecture`, part of `npm test`); this spec checks what it does not state.
 */

const SRC = path.resolve(import.meta.dirname, '../../src');
const MAX_LINES = 400;
/** The rooms whose Nest modules may be global: infrastructure every plane uses. */
const GLOBAL_ROOMS = ['config', 'database', 'common'];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const files = sourceFiles(SRC);
const relative = (file: string) => path.relative(SRC, file);
const roomOf = (file: string) => relative(file).split(path.sep)[0];
const lineCount = (source: string) => source.split('\n').length - (source.endsWith('\n') ? 1 : 0);

/** Relative import and export specifiers of a file (static, dynamic and type-only). */
function relativeImports(source: string): string[] {
  const pattern = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
  return [...source.matchAll(pattern)].map((match) => match[1]);
}

describe('structure of src/', () => {
  it('finds the source files it judges', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.map(relative)).toContain(path.join('config', 'app-config.ts'));
  });

  it(`has no file over ${MAX_LINES} lines`, () => {
    const long = files
      .map((file) => ({ file: relative(file), lines: lineCount(fs.readFileSync(file, 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it(`declares @Global() modules only in ${GLOBAL_ROOMS.join(', ')}`, () => {
    const globals = files.filter((file) => /@Global\(/.test(fs.readFileSync(file, 'utf8')));
    expect(globals.length).toBeGreaterThan(0);
    const outside = globals.filter((file) => !GLOBAL_ROOMS.includes(roomOf(file)));
    expect(outside.map(relative)).toEqual([]);
  });

  it('config imports no plane: only config itself (and packages)', () => {
    const configFiles = files.filter((file) => roomOf(file) === 'config');
    const outside = configFiles.flatMap((file) =>
      relativeImports(fs.readFileSync(file, 'utf8'))
        .map((specifier) => path.resolve(path.dirname(file), specifier))
        .filter((target) => roomOf(target) !== 'config')
        .map((target) => `${relative(file)} -> ${relative(target)}`),
    );
    expect(configFiles.length).toBeGreaterThan(5);
    expect(outside).toEqual([]);
  });

  it('reads imports the way the checks above assume', () => {
    expect(
      relativeImports(
        "import a from './a.js';\nimport type { B } from '../b.js';\nexport { c } from './c.js';\nawait import('../d.js');",
      ),
    ).toEqual(['./a.js', '../b.js', './c.js', '../d.js']);
  });
});
