import { describe, expect, it } from '@jest/globals';
import { readDocument } from './classify.js';
import {
  DOCUMENT_READING,
  gatherEvidence,
  passagesOf,
  RUNNING_TEXT_LINE_DISCOUNT,
} from './evidence.js';
import type { ClassificationCategory } from './classify.types.js';

const sentence =
  'The committee met on Tuesday and agreed that the new members would join the group after the summer break.';
// Two short lines read as one chunk (each also a single line), three long lines of running text.
const runningPage = ['Meeting notes', 'Held in the town hall', sentence, sentence, sentence].join(
  '\n',
);
const schema: ClassificationCategory[] = [
  { category: 'meeting_minutes', criteria: ['notes of what a meeting agreed'] },
  { category: 'recipe', criteria: ['ingredients and cooking steps'] },
];

describe('single lines of running text', () => {
  it('marks a line read apart from the chunks, not one that is a chunk itself', () => {
    const passages = passagesOf(
      ['Total: 5\n\nA paragraph of its own words here.'],
      undefined,
      8,
      8,
    );
    const lines = passages.filter((passage) => passage.singleLine);
    expect(lines.length).toBeGreaterThan(0);
    expect(passages.filter((passage) => !passage.singleLine).length).toBeGreaterThan(0);
  });

  it('lowers a single line of a document of running text by the discount, and no chunk', () => {
    const reading = readDocument([runningPage], undefined, 160, 24);
    expect(reading.runningText).toBe(true);
    const lineAt = reading.passages.findIndex((passage) => passage.singleLine);
    expect(lineAt).toBeGreaterThanOrEqual(0);
    // Only the line is read, so the best match of every statement is that line.
    const onlyLine = { ...reading, passages: [reading.passages[lineAt]] };
    const discounted = gatherEvidence(schema, onlyLine, DOCUMENT_READING);
    const plain = gatherEvidence(schema, { ...onlyLine, runningText: false }, DOCUMENT_READING);
    discounted.forEach((category, c) =>
      category.criteria.forEach((criterion, i) =>
        expect(plain[c].criteria[i].semantic - criterion.semantic).toBeCloseTo(
          RUNNING_TEXT_LINE_DISCOUNT,
          6,
        ),
      ),
    );
    const chunksOnly = {
      ...reading,
      passages: reading.passages.filter((passage) => !passage.singleLine),
    };
    expect(gatherEvidence(schema, chunksOnly, DOCUMENT_READING)).toEqual(
      gatherEvidence(schema, { ...chunksOnly, runningText: false }, DOCUMENT_READING),
    );
  });
});
