import { describe, expect, it } from '@jest/globals';
import { dateOrders, keepDatesInOrder } from './date-order.js';
import { scalarField, type Leaf, type ScalarField } from './field-search.js';

const dateField = (name: string, description?: string) =>
  scalarField(name, name, { type: 'string', format: 'date', description });

const pairs = (fields: ScalarField[]) =>
  dateOrders(fields).map(({ earlier, later }) => `${earlier.name} <= ${later.name}`);

function leaf(value: string, confidence: number): Leaf {
  return { kind: 'leaf', value, confidence, citations: [] };
}

describe('dates in order', () => {
  it("reads from the descriptions which date is a deadline after the document's own", () => {
    expect(
      pairs([
        dateField('invoice_date', 'The invoice date'),
        dateField('due_date', 'The due date of the payment'),
      ]),
    ).toEqual(['invoice_date <= due_date']);
    expect(
      pairs(
        [
          dateField('datum', 'Rechnungsdatum'),
          dateField('frist', 'Fälligkeitsdatum'),
          dateField('total', undefined),
        ].slice(0, 2),
      ),
    ).toEqual(['datum <= frist']);
    expect(
      pairs([
        dateField('signed', 'The date of the agreement'),
        dateField('ends', 'Termination date'),
      ]),
    ).toEqual(['signed <= ends']);
  });

  it('sets no order between dates that may come either way', () => {
    expect(
      pairs([dateField('invoice_date', 'The invoice date'), dateField('order_date', 'Order date')]),
    ).toEqual([]);
    expect(
      pairs([
        dateField('agreement_date', 'The date of the agreement'),
        dateField('start', 'The start date of the lease'),
      ]),
    ).toEqual([]);
    expect(pairs([dateField('date', 'The invoice date')])).toEqual([]);
  });

  it('takes the best supported pair of answers that is in order, and invents none', () => {
    const issued = dateField('invoice_date', 'The invoice date');
    const due = dateField('due_date', 'The due date');
    const orders = [{ earlier: issued, later: due }];
    const chosen = new Map([
      ['invoice_date', leaf('2026-04-04', 0.9)],
      ['due_date', leaf('2026-03-05', 0.8)],
    ]);
    const alternatives: Record<string, Leaf[]> = {
      invoice_date: [leaf('2026-03-05', 0.85)],
      due_date: [leaf('2026-05-04', 0.5)],
    };
    keepDatesInOrder(orders, chosen, (f) => alternatives[f.key] ?? []);
    expect(chosen.get('invoice_date')?.value).toBe('2026-03-05');
    expect(chosen.get('due_date')?.value).toBe('2026-03-05');

    const stuck = new Map([
      ['invoice_date', leaf('2026-04-04', 0.9)],
      ['due_date', leaf('2026-03-05', 0.8)],
    ]);
    keepDatesInOrder(orders, stuck, () => []);
    expect(stuck.get('invoice_date')?.value).toBe('2026-04-04');
    expect(stuck.get('due_date')?.value).toBe('2026-03-05');
  });
});
