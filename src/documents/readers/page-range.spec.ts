import { describe, expect, it } from '@jest/globals';
import { PageSelectionError, TooManyPagesSelectedError } from './document.errors.js';
import {
  countRequestedPages,
  selectPages,
  validatePageRange,
  type PageRangeInput,
} from './page-range.js';

function kindOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof PageSelectionError) return error.kind;
    throw error;
  }
  return undefined;
}

describe('selectPages', () => {
  it('selects the first 5 pages when page_range is null or absent', () => {
    expect(selectPages(null, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(selectPages(undefined, 20)).toEqual([1, 2, 3, 4, 5]);
  });

  it('selects every page of a document shorter than the default', () => {
    expect(selectPages(null, 3)).toEqual([1, 2, 3]);
  });

  it('treats an empty list like null', () => {
    expect(selectPages([], 8)).toEqual([1, 2, 3, 4, 5]);
  });

  it('reads a PageRange inclusively and 1-indexed', () => {
    expect(selectPages({ start: 2, end: 4 }, 10)).toEqual([2, 3, 4]);
    expect(selectPages({ start: 7, end: 7 }, 10)).toEqual([7]);
  });

  it('treats missing or null ends as open', () => {
    expect(selectPages({ start: 8 }, 10)).toEqual([8, 9, 10]);
    expect(selectPages({ start: 8, end: null }, 10)).toEqual([8, 9, 10]);
    expect(selectPages({ end: 3 }, 10)).toEqual([1, 2, 3]);
    expect(selectPages({ start: null, end: null }, 4)).toEqual([1, 2, 3, 4]);
    expect(selectPages({}, 4)).toEqual([1, 2, 3, 4]);
  });

  it('clips a range that runs past the document', () => {
    expect(selectPages({ start: 2, end: 9 }, 4)).toEqual([2, 3, 4]);
  });

  it('merges arrays of ranges, removing overlaps and sorting', () => {
    expect(
      selectPages(
        [
          { start: 5, end: 6 },
          { start: 1, end: 2 },
          { start: 2, end: 3 },
        ],
        10,
      ),
    ).toEqual([1, 2, 3, 5, 6]);
  });

  it('dedupes and sorts integer lists and drops pages beyond the document', () => {
    expect(selectPages([3, 1, 3, 2, 40], 5)).toEqual([1, 2, 3]);
  });

  it('allows exactly 10 pages', () => {
    expect(selectPages({ start: 11, end: 20 }, 30)).toHaveLength(10);
    expect(selectPages([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 10)).toHaveLength(10);
  });

  it('refuses more than 10 selected pages with the count', () => {
    const run = (input: PageRangeInput, total: number) => () => selectPages(input, total);
    expect(run({ start: 1, end: 11 }, 30)).toThrow(TooManyPagesSelectedError);
    try {
      selectPages(
        [
          { start: 1, end: 6 },
          { start: 10, end: 15 },
        ],
        30,
      );
      throw new Error('expected an error');
    } catch (error) {
      expect(error).toBeInstanceOf(TooManyPagesSelectedError);
      expect((error as TooManyPagesSelectedError).count).toBe(12);
      expect((error as TooManyPagesSelectedError).max).toBe(10);
      expect((error as TooManyPagesSelectedError).ctx).toEqual({ count: 12, max: 10 });
    }
  });

  it('counts an open range by what it selects in this document', () => {
    expect(selectPages({ start: 3 }, 12)).toHaveLength(10);
    expect(() => selectPages({ start: 3 }, 13)).toThrow(TooManyPagesSelectedError);
    expect(() => selectPages({ end: null }, 50)).toThrow(TooManyPagesSelectedError);
  });

  it('does not count overlapping pages twice', () => {
    expect(
      selectPages(
        [
          { start: 1, end: 8 },
          { start: 3, end: 10 },
        ],
        20,
      ),
    ).toHaveLength(10);
    expect(selectPages([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2], 5)).toEqual([1, 2]);
  });

  it('refuses start after end', () => {
    expect(kindOf(() => selectPages({ start: 5, end: 2 }, 10))).toBe('invalid_page_range');
  });

  it('refuses zero, negative and fractional pages', () => {
    expect(kindOf(() => selectPages({ start: 0, end: 2 }, 10))).toBe('invalid_page_range');
    expect(kindOf(() => selectPages({ start: -1 }, 10))).toBe('invalid_page_range');
    expect(kindOf(() => selectPages({ end: 0 }, 10))).toBe('invalid_page_range');
    expect(kindOf(() => selectPages([0, 1], 10))).toBe('invalid_page_range');
    expect(kindOf(() => selectPages([-3], 10))).toBe('invalid_page_range');
    expect(kindOf(() => selectPages([1.5], 10))).toBe('invalid_page_range');
  });

  it('refuses malformed entries', () => {
    const bad = ['2', null, [1]] as unknown as PageRangeInput;
    expect(kindOf(() => selectPages(bad, 10))).toBe('invalid_page_range');
    expect(kindOf(() => selectPages({ start: '1' } as unknown as PageRangeInput, 10))).toBe(
      'invalid_page_range',
    );
  });

  it('refuses a selection that keeps no page of the document', () => {
    expect(kindOf(() => selectPages({ start: 6, end: 8 }, 5))).toBe('no_pages_selected');
    expect(kindOf(() => selectPages([9, 10], 3))).toBe('no_pages_selected');
    expect(kindOf(() => selectPages(null, 0))).toBe('no_pages_selected');
  });
});

describe('validatePageRange', () => {
  it('accepts null and small selections without a document', () => {
    expect(() => validatePageRange(null)).not.toThrow();
    expect(() => validatePageRange({ start: 1, end: 10 })).not.toThrow();
    expect(() => validatePageRange({ start: 100 })).not.toThrow();
  });

  it('refuses bounded selections over 10 pages before any document is read', () => {
    expect(() => validatePageRange({ start: 1, end: 11 })).toThrow(TooManyPagesSelectedError);
    expect(() => validatePageRange([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])).toThrow(
      TooManyPagesSelectedError,
    );
  });

  it('counts the known page of an open-ended range, as the HTTP layer does', () => {
    expect(countRequestedPages([{ start: 1, end: 10 }, { start: 20 }])).toBe(11);
    expect(countRequestedPages([{ start: 3 }, { start: 3, end: 3 }, { start: 2, end: 4 }])).toBe(3);
    expect(() => validatePageRange([{ start: 1, end: 10 }, { start: 20 }])).toThrow(
      TooManyPagesSelectedError,
    );
  });

  it('refuses a bounded range over 10 pages even if the document is shorter', () => {
    expect(() => selectPages({ start: 1, end: 20 }, 3)).toThrow(TooManyPagesSelectedError);
  });
});
