import { describe, expect, it } from '@jest/globals';
import { loadLayoutDocument } from '../parse/layout.loader.js';
import { collectCandidates } from './candidates.js';
import { documentContext } from './document-context.js';
import { moneyColumns, scalarField, scoreCandidates } from './field-search.js';
import { LexicalLabelSimilarity } from './label-similarity.js';

/** The values the label search reads for a money field in a text document, best first. */
async function amountsFor(lines: string[], name: string, description: string): Promise<unknown[]> {
  const document = await loadLayoutDocument(Buffer.from(lines.join('\n')), 'document.txt');
  const { lines: all, candidates } = collectCandidates(document, {
    inline: false,
    linesBelow: 2,
    multiLine: false,
  });
  const settings = {
    similarity: new LexicalLabelSimilarity(),
    fallbacks: true,
    moneyColumns: moneyColumns(all),
  };
  const field = scalarField(name, name, { type: 'number', description });
  return scoreCandidates(field, candidates, documentContext(all), settings, all.length).map(
    (s) => s.value,
  );
}

describe('the label search for an amount', () => {
  it('reads a bare figure below the amounts a document writes as money as a count', async () => {
    const due = 'The total amount due';
    expect(await amountsFor(['ACME Ltd', 'Widget 12.50 EUR', 'Total 3'], 'total', due)).toEqual([]);
    expect(
      await amountsFor(
        ['ACME Ltd', 'Widget 12.50 EUR', 'Total 3', 'Total due 12.50 EUR'],
        'total',
        due,
      ),
    ).toEqual([12.5]);
    // With no amount written as money, or above them, the figure may be the total.
    expect(await amountsFor(['ACME Ltd', 'Total 3'], 'total', due)).toEqual([3]);
    expect(await amountsFor(['ACME Ltd', 'Deposit 5.00 EUR', 'Total: 40'], 'total', due)).toContain(
      40,
    );
  });

  it("reads a document's name with a bare number after it as the document's number", async () => {
    expect(
      await amountsFor(['Invoice 42', 'Amount 10.00 EUR'], 'amount', 'invoice amount'),
    ).toEqual([10]);
    // An amount written as money after the document's name is its amount.
    expect(
      await amountsFor(['ACME Ltd', 'Invoice: 10.00 EUR'], 'amount', 'invoice amount'),
    ).toEqual([10]);
  });
});
