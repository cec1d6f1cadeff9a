import { describe, expect, it } from '@jest/globals';
import type { LayoutLine } from '../parse/layout.types.js';
import type { Candidate } from './candidates.js';
import { crossCheck } from './cross-checks.js';
import { documentContext } from './document-context.js';
import { scalarField, type Leaf, type Scored } from './field-search.js';

function line(text: string, index: number): LayoutLine {
  const bbox = { left: 0.1, top: 0.05 + index * 0.03, width: 0.5, height: 0.02, page: 1 };
  return { text, bbox, size: 0.02, segments: [], words: [] };
}

const lines = ['Widget 10.00', 'Gadget 20.00', 'VAT 3.00', 'Deposit 25.00', 'Balance 33.00'].map(
  line,
);
const context = documentContext(lines);
const total = scalarField('total', 'total', {
  type: 'number',
  description: 'The total amount of the invoice',
});

function scored(value: number, at: number, score: number): Scored {
  const { text, bbox } = lines[at];
  const candidate: Candidate = {
    label: text.split(' ')[0],
    value: String(value),
    relation: 'columns',
    lineIndex: at,
    citation: { type: 'Key Value', content: text, bbox },
  };
  return { field: total, candidate, value, score, labelScore: score };
}

function check(rowSums: number[]): unknown {
  const ranked = [scored(25, 3, 0.8), scored(33, 4, 0.75)];
  const first: Leaf = {
    kind: 'leaf',
    value: 25,
    citations: [ranked[0].candidate.citation],
    confidence: 0.8,
  };
  const assigned = new Map([['total', first]]);
  crossCheck([total], new Map([['total', ranked]]), assigned, context, lines, false, rowSums);
  return assigned.get('total')?.value;
}

describe('cross-checks of extracted values', () => {
  it('prefers the near-tied amount the line items add up to, with another amount (the tax)', () => {
    // 10.00 + 20.00 = 30.00, and 30.00 + 3.00 = 33.00: the balance, not the deposit.
    expect(check([30])).toBe(33);
  });

  it('keeps the best answer when there are no line items, or they reach none', () => {
    expect(check([])).toBe(25);
    expect(check([41.5])).toBe(25);
  });
});
