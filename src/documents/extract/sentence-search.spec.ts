import { describe, expect, it } from '@jest/globals';
import { sentenceEncoder } from '../encoder/sentence-encoder.js';
import { loadLayoutDocument } from '../parse/layout.loader.js';
import { documentContext } from './document-context.js';
import { scalarField } from './field-search.js';
import { searchSentences, sentenceSearchOf } from './sentence-search.js';

const total = scalarField('total', 'total', {
  type: 'number',
  description: 'The total amount due',
});

const invoiceAmount = scalarField('amount', 'amount', {
  type: 'number',
  description: 'invoice amount',
});

/** The running-text search's answer for `total` in a text document of these lines. */
async function totalIn(lines: string[], field = total): Promise<unknown> {
  const document = await loadLayoutDocument(Buffer.from(lines.join('\n')), 'terms.txt');
  const all = document.pages.flatMap((page) => page.lines);
  const context = documentContext(all);
  const found = searchSentences(
    sentenceSearchOf(all, context),
    field,
    context,
    sentenceEncoder(),
    false,
  );
  return found?.value ?? null;
}

describe('the running-text search for an amount', () => {
  it.each([
    ['3 Total costs'],
    ['3.2 Total costs'],
    ['Section 3: Total costs'],
    ['Chapter 3 Sum of the costs'],
  ])('reads no amount in the number of the heading "%s"', async (heading) => {
    expect(await totalIn(['ACME Ltd', heading, 'The costs of the works are set out below.'])).toBe(
      null,
    );
  });

  it('reads an amount a heading writes as money, and one in the sentence under it', async () => {
    expect(
      await totalIn([
        'ACME Ltd',
        'Section 3: Total costs EUR 1,250.00',
        'The costs of the works are set out below, as the parties agreed on signing.',
      ]),
    ).toBe(1250);
    expect(
      await totalIn([
        'ACME Ltd',
        '3 Total costs',
        'The total costs of the works are 1,250.00 EUR.',
      ]),
    ).toBe(1250);
  });

  it('reads the amount a sentence writes as money ahead of a bare figure before it', async () => {
    expect(await totalIn(['Invoice 42', 'Sum 10.00 EUR'], invoiceAmount)).toBe(10);
    // A bare figure alone is still read.
    expect(await totalIn(['Invoice 42', 'Sum 10'], invoiceAmount)).toBe(42);
  });
});
