import { describe, expect, it } from '@jest/globals';
import { formBlocks } from './layout.engines.js';
import type { LayoutLine, LayoutPage } from './layout.types.js';

/** A line of body text at `top` spanning `left`..`right` (page fractions), 0.015 high. */
function line(text: string, left: number, right: number, top: number): LayoutLine {
  const bbox = { left, top, width: right - left, height: 0.015, page: 1 };
  return { text, bbox, size: 0.015, segments: [{ text, left, right }], words: [] };
}

function paragraphs(lines: LayoutLine[]): string[] {
  const page: LayoutPage = { pageNumber: 1, source: 'text-layer', lines, synthetic: false };
  return formBlocks('paragraph-blocks', [page]).map((block) => block.content);
}

// Lines 0.0175 apart (a gap of 0.0025 under each line of 0.015): one paragraph's spacing.
const ARABIC = ['هذا سطر أول طويل', 'وسطر ثان أقصر', 'وسطر ثالث', 'نهاية'];

describe('paragraphs of the paragraph-blocks layout', () => {
  it('reads a right-aligned right-to-left paragraph with a ragged left edge as one block', () => {
    const lines = [
      line(ARABIC[0], 0.15, 0.85, 0.2),
      line(ARABIC[1], 0.35, 0.85, 0.2175),
      line(ARABIC[2], 0.55, 0.85, 0.235),
      line(ARABIC[3], 0.7, 0.85, 0.2525),
    ];
    expect(paragraphs(lines)).toEqual([ARABIC.join(' ')]);
  });

  it("ends a justified right-to-left paragraph's block at its last line, ended on the right", () => {
    const lines = [
      line(ARABIC[0], 0.15, 0.85, 0.2),
      line(ARABIC[1], 0.16, 0.85, 0.2175),
      line(ARABIC[2], 0.6, 0.85, 0.235),
      // Aligned on the left with the line above but not on the right the paragraph kept.
      line(ARABIC[3], 0.6, 0.7, 0.2525),
    ];
    expect(paragraphs(lines)).toEqual([ARABIC.slice(0, 3).join(' '), ARABIC[3]]);
  });

  it('keeps right-aligned left-to-right lines (an address, a date) as blocks of their own', () => {
    const lines = [
      line('We expect steady growth next quarter.', 0.1, 0.9, 0.2),
      line('Berlin, 3 March 2024', 0.7, 0.9, 0.2175),
      line('Head office', 0.78, 0.9, 0.235),
    ];
    expect(paragraphs(lines)).toEqual([
      'We expect steady growth next quarter.',
      'Berlin, 3 March 2024',
      'Head office',
    ]);
  });

  it('still joins left-aligned lines, of either direction', () => {
    const lines = [
      line('A left-aligned paragraph', 0.1, 0.9, 0.2),
      line('ends here.', 0.1, 0.3, 0.2175),
      line(ARABIC[0], 0.1, 0.85, 0.3),
      line(ARABIC[1], 0.12, 0.5, 0.3175),
    ];
    expect(paragraphs(lines)).toEqual([
      'A left-aligned paragraph ends here.',
      `${ARABIC[0]} ${ARABIC[1]}`,
    ]);
  });
});
