import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';

/*
 * Code, comments, scripts and docs say why, not which tracker entry asked: a tracker number
 * stops meaning anything once the tracker is gone. The decision records have their own check.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const TRACKER_NUMBER = /\bissues?\s*#?\d+/i;
const CHECKED = /\.(?:ts|mts|mjs|cjs|js|sh|md|sql)$/;
const EXEMPT = new Set([
  'test/architecture/decision-records.spec.ts',
  'test/architecture/tracker-numbers.spec.ts',
]);

/** Files tracked by git (and new ones not ignored) that this rule covers. */
function checkedFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((file) => CHECKED.test(file) && !EXEMPT.has(file))
    .filter((file) => fs.existsSync(path.join(ROOT, file)));
}

/** `file:line: text` for each line naming a tracker entry by number. */
function trackerNumberLines(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) =>
      TRACKER_NUMBER.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
    );
}

describe('tracker numbers', () => {
  it('finds a tracker number however it is written', () => {
    expect(trackerNumberLines('a.ts', '// issue 6: x\n// Issues #12\nissue date\n')).toEqual([
      'a.ts:1: // issue 6: x',
      'a.ts:2: // Issues #12',
    ]);
  });

  it('appear nowhere in the code, scripts or docs', () => {
    const found = checkedFiles().flatMap((file) =>
      trackerNumberLines(file, fs.readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(found).toEqual([]);
  });
});
