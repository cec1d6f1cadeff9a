import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';

/*
 * Decisions are kept as records in docs/decisions/ (see its README.md): one file per decision,
 * each with the same four sections, every file listed in the index, and no tracker numbers
 * (a record says what the problem was, so it still reads once the tracker is gone).
 */

const DECISIONS = path.resolve(import.meta.dirname, '../../docs/decisions');
const INDEX = 'README.md';
const SECTIONS = ['Context', 'Decision', 'Status', 'Consequences'] as const;
const RECORD_NAME = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
const ISSUE_NUMBER = /\bissues?\s*#?\d+/i;

interface RecordFile {
  name: string;
  text: string;
}

/** The sections a record lacks: a heading (level 2 to 4) naming each. */
function missingSections(text: string): string[] {
  return SECTIONS.filter((section) => !new RegExp(`^#{2,4}\\s+${section}\\b`, 'im').test(text));
}

/** Lines of a record that name a tracker issue by number. */
function issueNumberLines(text: string): string[] {
  return text.split('\n').filter((line) => ISSUE_NUMBER.test(line));
}

/** The link targets of the index that are record files (`](0001-title.md)`). */
function indexedRecords(index: string): string[] {
  return [...index.matchAll(/\]\(\.?\/?([^)\s#]+\.md)(?:#[^)]*)?\)/g)]
    .map((match) => match[1])
    .filter((target) => RECORD_NAME.test(target));
}

/** Everything wrong with a set of records and their index, one line per problem. */
function problemsOf(records: RecordFile[], index: string): string[] {
  const problems: string[] = [];
  const listed = new Set(indexedRecords(index));
  const names = new Set(records.map((record) => record.name));
  const numbers = new Map<string, string>();
  for (const { name, text } of records) {
    const match = RECORD_NAME.exec(name);
    if (!match) {
      problems.push(`${name}: not named NNNN-kebab-title.md`);
      continue;
    }
    const other = numbers.get(match[1]);
    if (other) problems.push(`${name}: number ${match[1]} is also ${other}`);
    numbers.set(match[1], name);
    for (const section of missingSections(text)) problems.push(`${name}: no ${section} section`);
    for (const line of issueNumberLines(text)) problems.push(`${name}: issue number in "${line}"`);
    if (!listed.has(name)) problems.push(`${name}: not listed in ${INDEX}`);
  }
  for (const target of listed) {
    if (!names.has(target)) problems.push(`${INDEX}: lists ${target}, which does not exist`);
  }
  return problems;
}

function readRecords(): RecordFile[] {
  return fs
    .readdirSync(DECISIONS)
    .filter((name) => name.endsWith('.md') && name !== INDEX)
    .sort()
    .map((name) => ({ name, text: fs.readFileSync(path.join(DECISIONS, name), 'utf8') }));
}

const GOOD = [
  '# 0001. A decision',
  '## Context',
  'Why.',
  '## Decision',
  'What.',
  '## Status',
  'Accepted',
  '## Consequences',
  'What follows.',
].join('\n\n');

describe('decision records in docs/decisions/', () => {
  const records = readRecords();
  const index = fs.readFileSync(path.join(DECISIONS, INDEX), 'utf8');

  it('finds the records it judges', () => {
    expect(records.length).toBeGreaterThanOrEqual(99);
    expect(records.map((record) => record.name)).toContain('0001-esm-typescript-and-swc-jest.md');
  });

  it('has the four sections in every record, every record indexed, no issue numbers', () => {
    expect(problemsOf(records, index)).toEqual([]);
  });

  it('reports a record without a section, with an issue number, or missing from the index', () => {
    const index1 = '| [0001](0001-good.md) | A decision |\n| [0003](0003-gone.md) | Gone |';
    const problems = problemsOf(
      [
        { name: '0001-good.md', text: GOOD },
        { name: '0002-no-status.md', text: GOOD.replace('## Status', 'Status:') },
        { name: '0004-tracked.md', text: `${GOOD}\n\nAs asked in issue #16, point 2.` },
        { name: '0004-twice.md', text: GOOD },
        { name: 'notes.md', text: GOOD },
      ],
      index1,
    );
    expect(problems).toEqual([
      '0002-no-status.md: no Status section',
      '0002-no-status.md: not listed in README.md',
      '0004-tracked.md: issue number in "As asked in issue #16, point 2."',
      '0004-tracked.md: not listed in README.md',
      '0004-twice.md: number 0004 is also 0004-tracked.md',
      '0004-twice.md: not listed in README.md',
      'notes.md: not named NNNN-kebab-title.md',
      'README.md: lists 0003-gone.md, which does not exist',
    ]);
  });

  it('tells an issue named by its number from the word "issue" in prose', () => {
    expect(issueNumberLines('Issue 13 asked for it.\nissue#7\nsee Issues 4-9')).toHaveLength(3);
    expect(issueNumberLines('The issue was the 512 MB budget.\nIts 2 issues are noted.')).toEqual(
      [],
    );
  });
});
