import { describe, expect, it } from '@jest/globals';
import type { LayoutDocument, LayoutLine } from '../parse/layout.types.js';
import { collectCandidates } from './candidates.js';

/** A line of cells, each given as [text, left, right]. */
function line(index: number, cells: readonly [string, number, number][]): LayoutLine {
  const left = cells[0][1];
  const right = cells[cells.length - 1][2];
  return {
    text: cells.map(([text]) => text).join('   '),
    bbox: { left, top: 0.1 + index * 0.025, width: right - left, height: 0.02, page: 1 },
    size: 0.02,
    segments: cells.map(([text, l, r]) => ({ text, left: l, right: r })),
    words: [],
  };
}

function documentOf(lines: LayoutLine[]): LayoutDocument {
  return {
    fileType: 'pdf',
    totalPages: 1,
    pages: [{ pageNumber: 1, source: 'text-layer', lines, synthetic: false }],
  };
}

const options = { inline: false, linesBelow: 2, multiLine: false };

describe('label-value candidates of a key-value block', () => {
  it('never take the next key of the block for the value of the key above it', () => {
    const { candidates } = collectCandidates(
      documentOf([
        line(0, [['NAME', 0.05, 0.15]]),
        line(1, [
          ['ADDRESS', 0.05, 0.17],
          [':', 0.3, 0.31],
        ]),
        line(2, [['GST NO.:', 0.05, 0.16]]),
      ]),
      options,
    );
    const values = candidates.filter((c) => c.label === 'NAME').map((c) => c.value);
    expect(values).not.toContain('ADDRESS');
    expect(values).not.toContain('GST NO.:');
  });

  it('still read a value under its label', () => {
    const { candidates } = collectCandidates(
      documentOf([line(0, [['SHIP TO', 0.05, 0.15]]), line(1, [['221B Baker Street', 0.05, 0.3]])]),
      options,
    );
    expect(candidates.filter((c) => c.label === 'SHIP TO').map((c) => c.value)).toContain(
      '221B Baker Street',
    );
  });
});

describe('labels written as initialisms with points', () => {
  it('split "P.O. #: 4711" into its label and value, on a line and in two columns', () => {
    const { candidates } = collectCandidates(
      documentOf([
        line(0, [['P.O. #: 4711', 0.05, 0.3]]),
        line(1, [
          ['A.B.N.', 0.05, 0.15],
          ['51 824 753 556', 0.3, 0.5],
        ]),
      ]),
      options,
    );
    expect(candidates.map((c) => [c.label, c.value])).toEqual(
      expect.arrayContaining([
        ['P.O. #', '4711'],
        ['A.B.N.', '51 824 753 556'],
      ]),
    );
  });

  it('take no lone letter with a point for a label', () => {
    const { candidates } = collectCandidates(
      documentOf([line(0, [['A.: 4711', 0.05, 0.3]]), line(1, [['Q. 12', 0.05, 0.3]])]),
      options,
    );
    expect(candidates).toEqual([]);
  });
});

describe('labels followed on their line by their values with no separator', () => {
  const pairs = (text: string, inline: boolean) =>
    collectCandidates(documentOf([line(0, [[text, 0.05, 0.6]])]), { ...options, inline })
      .candidates.filter((c) => c.relation === 'inline')
      .map((c) => [c.label, c.value]);

  it('read an amount with the currency written after it as the value', () => {
    expect(pairs('Total 10.00 EUR', false)).toEqual([['Total', '10.00 EUR']]);
  });

  it('read every pair of a line of several, also for deep extract', () => {
    const expected = [
      ['Invoice', '42'],
      ['Total', '10.00 EUR'],
    ];
    expect(pairs('Invoice 42 Total 10.00 EUR', false)).toEqual(expected);
    expect(pairs('Invoice 42 Total 10.00 EUR', true)).toEqual(expect.arrayContaining(expected));
  });

  it('keep a date in words after its label whole, no month labelling the year', () => {
    expect(pairs('Issued 12 March 2024', false)).toEqual([]);
  });
});

describe('a currency drawn in a cell of its own between a label and its amount', () => {
  it('is read with the amount after it as the value', () => {
    const { candidates } = collectCandidates(
      documentOf([
        line(0, [
          ['TOTAL', 0.05, 0.15],
          ['RM', 0.5, 0.55],
          ['86.00', 0.7, 0.8],
        ]),
      ]),
      options,
    );
    expect(candidates.filter((c) => c.label === 'TOTAL').map((c) => c.value)).toEqual(['RM 86.00']);
  });

  it('leaves a word that is no currency as the value', () => {
    const { candidates } = collectCandidates(
      documentOf([
        line(0, [
          ['NAME', 0.05, 0.15],
          ['ACME', 0.5, 0.6],
          ['12', 0.7, 0.8],
        ]),
      ]),
      options,
    );
    expect(candidates.filter((c) => c.label === 'NAME').map((c) => c.value)).toEqual(['ACME']);
  });
});
