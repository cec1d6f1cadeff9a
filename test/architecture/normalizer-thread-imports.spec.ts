import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';

// The usage normalizer's worker thread is a V8 isolate of its own: every module its entry
// loads is parsed, compiled and kept there a second time, beside the main thread's copy.
// The settings (and zod under them) alone held ~3.6 MB of that thread's heap, though the
// thread gets its policy with each batch. This keeps what the thread loads to what it runs.

const ROOT = path.resolve(import.meta.dirname, '../..');
const ENTRY = 'src/usage/ingestion/usage-normalizer.worker.ts';

/** Specifiers a module loads at run time (type-only imports and exports are erased). */
function runtimeImports(source: string): string[] {
  const specifiers: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([^;'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  for (const [, , typeOnly, , specifier] of source.matchAll(statement)) {
    if (!typeOnly) specifiers.push(specifier);
  }
  return specifiers;
}

/** Every file and package the entry reaches through run-time imports. */
function reachedFrom(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of runtimeImports(fs.readFileSync(path.join(ROOT, file), 'utf8'))) {
      if (!specifier.startsWith('.')) {
        packages.add(specifier);
        continue;
      }
      visit(path.join(path.dirname(file), specifier).replace(/\.js$/, '.ts'));
    }
  };
  visit(entry);
  return { files, packages };
}

describe('the usage normalizer thread', () => {
  it('loads the normalizer without the settings or zod', () => {
    const { files, packages } = reachedFrom(ENTRY);
    expect(files).toContain('src/usage/ingestion/usage-event.normalizer.ts');
    expect([...files].filter((file) => file.startsWith('src/config/'))).toEqual([]);
    expect([...packages].filter((name) => !name.startsWith('node:'))).toEqual([]);
  });
});
