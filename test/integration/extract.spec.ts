import { beforeAll, describe, expect, it } from '@jest/globals';
import { RequestValidationError } from '../../src/common/validation-error.js';
import { type JsonSchema, validateSchema } from '../../src/documents/extract/extract-schema.js';
import { MAX_SCHEMA_NODES } from '../../src/documents/extract/schema-references.js';
import { extractDocument } from '../../src/documents/extract/extract.operation.js';
import { defaultSimilarity } from '../../src/documents/extract/schema-extract.js';
import { loadLayoutDocument } from '../../src/documents/parse/layout.loader.js';
import type { LayoutDocument } from '../../src/documents/parse/layout.types.js';
import { makeLayoutPdf, type DrawnLine } from '../support/layout-documents.js';

const schema: JsonSchema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string', format: 'date' },
    due_date: { type: 'string', format: 'date' },
    customer_name: { type: 'string', title: 'Customer' },
    paid: { type: 'boolean' },
    total: { type: 'number' },
    ship_to: { type: 'string' },
    shipping_carrier: { type: 'string', description: 'Carrier used for shipping' },
    line_items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          description: { type: 'string' },
          quantity: { type: 'integer' },
          unit_price: { type: 'number' },
          amount: { type: 'number' },
        },
      },
    },
  },
};

let doc: LayoutDocument;
let drawn: DrawnLine[];

beforeAll(async () => {
  const pdf = await makeLayoutPdf([
    {
      elements: [
        { title: 'INVOICE' },
        {
          keyValues: [
            ['Invoice Number', 'INV-2026-0042'],
            ['Invoice Date', 'March 5, 2026'],
            ['Due Date', '04/04/2026'],
            ['Customer', 'Globex Corporation'],
            ['Paid', 'No'],
          ],
        },
        { lines: ['Ship To:', '221B Baker Street', 'London NW1 6XE'] },
        { lines: ['Carrier: DHL Express'] },
        { heading: 'Line items' },
        {
          table: [
            ['Description', 'Qty', 'Unit Price', 'Amount'],
            ['Widget A', '10', '12.50', '125.00'],
            ['Widget B', '4', '30.00', '120.00'],
          ],
        },
      ],
    },
    {
      elements: [
        // The table continues on page 2 without its header.
        { table: [['Service fee', '1', '55.00', '55.00']] },
        { keyValues: [['Total Amount Due', '$300.00']] },
      ],
    },
  ]);
  drawn = pdf.lines;
  doc = await loadLayoutDocument(pdf.bytes);
});

function drawnLine(text: string): DrawnLine {
  const line = drawn.find((l) => l.text === text);
  if (!line) throw new Error(`not drawn: ${text}`);
  return line;
}

interface Cited {
  value: unknown;
  citations: { type: string; content: string; bbox: Record<string, number> }[];
}

function expectCitedAt(field: unknown, text: string) {
  const cited = field as Cited;
  const line = drawnLine(text);
  expect(cited.citations).toHaveLength(1);
  expect(cited.citations[0].content).toBe(text);
  expect(cited.citations[0].bbox.page).toBe(line.page);
  expect(cited.citations[0].bbox.left).toBeCloseTo(line.left, 2);
  expect(cited.citations[0].bbox.top).toBeCloseTo(line.top, 2);
  expect(cited.citations[0].bbox.width).toBeCloseTo(line.width, 2);
  expect(cited.citations[0].bbox.height).toBeCloseTo(line.height, 2);
}

describe('extract with extract-v3 (label-typed)', () => {
  it('finds key-value lines and cites the line each value was read from', () => {
    const { result, numFields } = extractDocument(doc, schema, {
      engine: 'label-typed',
      citations: true,
    });
    expect(numFields).toBe(12);
    expect((result.invoice_number as Cited).value).toBe('INV-2026-0042');
    expectCitedAt(result.invoice_number, 'Invoice Number: INV-2026-0042');
    expect((result.invoice_date as Cited).value).toBe('2026-03-05');
    expectCitedAt(result.invoice_date, 'Invoice Date: March 5, 2026');
    expect((result.due_date as Cited).value).toBe('2026-04-04');
    expect((result.customer_name as Cited).value).toBe('Globex Corporation');
    expect((result.paid as Cited).value).toBe(false);
    // The value below its label: the first line only for the default search.
    expect((result.ship_to as Cited).value).toBe('221B Baker Street');
    expectCitedAt(result.ship_to, '221B Baker Street');
    // "Total Amount Due" names the total; "Carrier" is the head of "shipping_carrier".
    expect((result.total as Cited).value).toBe(300);
    expectCitedAt(result.total, 'Total Amount Due: $300.00');
    expect((result.shipping_carrier as Cited).value).toBe('DHL Express');
  });

  it('reports the confidence of each value, and a value not found as null with low confidence', () => {
    const withMissing: JsonSchema = {
      type: 'object',
      properties: { ...schema.properties, tracking_code: { type: 'string' } },
    };
    const { result } = extractDocument(doc, withMissing, {
      engine: 'label-typed',
      citations: true,
    });
    expect(result.invoice_number).toMatchObject({ confidence: 'high' });
    const citation = (result.invoice_number as { citations: Record<string, unknown>[] })
      .citations[0];
    expect(citation.confidence).toBe('high');
    expect(
      (citation.granular_confidence as { extract_confidence: number }).extract_confidence,
    ).toBeGreaterThan(0.6);
    expect(result.tracking_code).toEqual({ value: null, citations: [], confidence: 'low' });
  });

  it('reads table rows whose headers match the item properties, citing each cell', () => {
    const { result } = extractDocument(doc, schema, { engine: 'label-typed', citations: true });
    const rows = result.line_items as Record<string, Cited>[];
    expect(
      rows.map((r) => [r.description.value, r.quantity.value, r.unit_price.value, r.amount.value]),
    ).toEqual([
      ['Widget A', 10, 12.5, 125],
      ['Widget B', 4, 30, 120],
      // The table goes on on page 2 without its header.
      ['Service fee', 1, 55, 55],
    ]);
    expectCitedAt(rows[1].amount, '120.00');
    expect(rows[2].amount.citations[0].bbox.page).toBe(2);
  });

  it('returns plain values when citations are off', () => {
    const { result } = extractDocument(doc, schema, { engine: 'label-typed', citations: false });
    expect(result.invoice_number).toBe('INV-2026-0042');
    expect(result.line_items).toEqual([
      { description: 'Widget A', quantity: 10, unit_price: 12.5, amount: 125 },
      { description: 'Widget B', quantity: 4, unit_price: 30, amount: 120 },
      { description: 'Service fee', quantity: 1, unit_price: 55, amount: 55 },
    ]);
  });
});

describe('extract engines differ', () => {
  it('extract-v2 (label-normalized) returns dates as written', () => {
    const { result } = extractDocument(doc, schema, {
      engine: 'label-normalized',
      citations: false,
    });
    expect(result.invoice_date).toBe('March 5, 2026');
    expect(result.due_date).toBe('04/04/2026');
  });

  it('extract-v1 (label-exact) uses only property names and reads no tables', () => {
    const { result } = extractDocument(doc, schema, { engine: 'label-exact', citations: false });
    expect(result.invoice_number).toBe('INV-2026-0042');
    expect(result.customer_name).toBeNull();
    expect(result.ship_to).toBeNull();
    expect(result.line_items).toEqual([]);
  });

  it('deep extract (deep-extract-v2) also reads values over several lines', () => {
    const { result } = extractDocument(doc, schema, {
      engine: 'label-typed',
      deepEngine: 'fuzzy-synonyms',
      citations: true,
    });
    expect((result.total as Cited).value).toBe(300);
    expectCitedAt(result.total, 'Total Amount Due: $300.00');
    expect((result.ship_to as Cited).value).toBe('221B Baker Street\nLondon NW1 6XE');
    const rows = result.line_items as Record<string, Cited>[];
    expect(rows.map((r) => [r.description.value, r.quantity.value, r.amount.value])).toEqual([
      ['Widget A', 10, 125],
      ['Widget B', 4, 120],
      ['Service fee', 1, 55],
    ]);
    expect(rows[2].amount.citations[0].bbox.page).toBe(2);
    expect((result.shipping_carrier as Cited).value).toBe('DHL Express');
  });

  it('deep-extract-v3 also matches labels against property descriptions', () => {
    const { result } = extractDocument(doc, schema, {
      engine: 'label-typed',
      deepEngine: 'fuzzy-synonyms-described',
      citations: true,
    });
    expect((result.shipping_carrier as Cited).value).toBe('DHL Express');
    expectCitedAt(result.shipping_carrier, 'Carrier: DHL Express');
  });
});

describe('extract from "Label value" lines with no separator', () => {
  const invoiceSchema: JsonSchema = {
    type: 'object',
    properties: { invoice_number: { type: 'string' }, total: { type: 'number' } },
  };

  // The line under "Invoice number INV-77" has its own label: its amount is not the
  // invoice number, and the code after the label on its own line is.
  it.each([
    ['INV-77', '12.00', 12],
    ['INV-42', '10.00', 10],
  ])('reads %s after its label, not the amount on the next line', async (code, due, total) => {
    const pdf = await makeLayoutPdf([
      { elements: [{ lines: [`Invoice number ${code}`, `Total due ${due}`] }] },
    ]);
    const lines = await loadLayoutDocument(pdf.bytes);
    for (const deepEngine of [undefined, 'fuzzy-synonyms-described'] as const) {
      const { result } = extractDocument(lines, invoiceSchema, {
        engine: 'label-typed',
        deepEngine,
        citations: true,
        similarity: defaultSimilarity(),
      });
      expect([deepEngine, (result.invoice_number as Cited).value]).toEqual([deepEngine, code]);
      expect((result.invoice_number as Cited).citations[0].content).toBe(`Invoice number ${code}`);
      expect([deepEngine, (result.total as Cited).value]).toEqual([deepEngine, total]);
    }
  });
});

describe('extract a total whose description names the document type as a heading does', () => {
  // "Invoice 42" heads the page with no number sign; the description "invoice total" says
  // the document's type. The field's own label, "Total", with an amount in its currency
  // after it, answers it, on its own line or after the heading on the same line.
  it.each([
    [['Invoice 42', 'Total 10.00 EUR'], 'invoice total'],
    [['Invoice 42', 'Total 10.00 EUR'], 'The total amount due'],
    [['Invoice 42 Total 10.00 EUR'], 'invoice total'],
    [['Invoice 42 Total 10.00 EUR'], 'The total amount due'],
    [['Invoice No. 42', 'Total: 10.00 EUR'], 'invoice total'],
  ])('reads 10 from %j described as "%s"', async (drawnLines, description) => {
    const pdf = await makeLayoutPdf([{ elements: [{ lines: drawnLines }] }]);
    const lines = await loadLayoutDocument(pdf.bytes);
    const totalSchema: JsonSchema = {
      type: 'object',
      properties: { total: { type: 'number', description } },
    };
    for (const deepEngine of [undefined, 'fuzzy-synonyms-described'] as const) {
      const { result } = extractDocument(lines, totalSchema, {
        engine: 'label-typed',
        deepEngine,
        citations: false,
        similarity: defaultSimilarity(),
      });
      expect([deepEngine, result.total]).toEqual([deepEngine, 10]);
    }
  });
});

describe(validateSchema.name, () => {
  const loc = ['body', 'instructions', 'schema'];

  it('accepts an object schema', () => {
    expect(validateSchema(schema, loc)).toEqual(schema);
  });

  it('reads a generated schema ($defs and $ref, optional fields as anyOf with null, allOf) as the same schema written out', () => {
    const generated = {
      type: 'object',
      $defs: {
        LineItem: {
          type: 'object',
          properties: {
            description: { type: 'string' },
            quantity: { type: 'integer' },
            unit_price: { type: 'number' },
            amount: { type: 'number' },
          },
        },
        Money: { type: 'number' },
      },
      properties: {
        invoice_number: { type: 'string' },
        invoice_date: { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] },
        due_date: { allOf: [{ type: 'string' }, { format: 'date' }] },
        customer_name: { anyOf: [{ type: 'string' }, { type: 'null' }], title: 'Customer' },
        paid: { type: 'boolean' },
        total: { anyOf: [{ $ref: '#/$defs/Money' }, { type: 'null' }], default: null },
        ship_to: { type: 'string' },
        shipping_carrier: { $ref: '#/$defs/Text', description: 'Carrier used for shipping' },
        line_items: {
          anyOf: [{ type: 'array', items: { $ref: '#/$defs/LineItem' } }, { type: 'null' }],
        },
      },
    };
    (generated.$defs as Record<string, unknown>).Text = { type: 'string' };
    const read = validateSchema(generated, loc);
    const options = { engine: 'label-typed', citations: false } as const;
    const fromGenerated = extractDocument(doc, read, options);
    expect(fromGenerated).toEqual(extractDocument(doc, schema, options));
    expect(fromGenerated.result).toMatchObject({
      total: 300,
      line_items: expect.arrayContaining([
        { description: 'Widget A', quantity: 10, unit_price: 12.5, amount: 125 },
      ]),
    });
  });

  it.each([
    ['a reference outside the schema', 'https://example.com/item.json'],
    ['a reference to nothing', '#/$defs/Missing'],
    ['a reference that contains itself', '#/$defs/Node'],
  ])('refuses %s with a 422 at the reference', (_name, reference) => {
    const bad = {
      type: 'object',
      $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } } },
      properties: { part: { $ref: reference } },
    };
    try {
      validateSchema(bad, loc);
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).detail[0]).toMatchObject({
        type: 'schema_ref',
        loc: expect.arrayContaining([...loc, 'properties', 'part']),
      });
    }
  });

  it('refuses a schema past MAX_SCHEMA_NODES, also when references multiply it', () => {
    const wide = (count: number) => ({
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: count }, (_, i) => [`field_${i}`, { type: 'string' }]),
      ),
    });
    expect(() => validateSchema(wide(MAX_SCHEMA_NODES - 1), loc)).not.toThrow();
    // Each level refers to the one below twice: 2^20 fields from a few lines of schema.
    const $defs: Record<string, unknown> = { L0: { type: 'string' } };
    for (let level = 1; level <= 20; level++) {
      const below = { $ref: `#/$defs/L${level - 1}` };
      $defs[`L${level}`] = { type: 'object', properties: { a: below, b: below } };
    }
    for (const bad of [wide(MAX_SCHEMA_NODES), { ...($defs.L20 as object), $defs }]) {
      expect(() => validateSchema(bad, loc)).toThrow(RequestValidationError);
      try {
        validateSchema(bad, loc);
      } catch (error) {
        expect((error as RequestValidationError).detail[0]).toMatchObject({
          type: 'schema_too_large',
          loc,
        });
      }
    }
  });

  it.each([
    ['a string', 'invoice', loc],
    ['an array schema at the root', { type: 'array', items: { type: 'string' } }, loc],
    [
      'an unknown property type',
      { type: 'object', properties: { when: { type: 'datetime' } } },
      [...loc, 'properties', 'when', 'type'],
    ],
  ])('refuses %s with a 422 pointing at it', (_name, bad, expectedLoc) => {
    try {
      validateSchema(bad, loc);
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).detail[0].loc).toEqual(expectedLoc);
    }
  });
});
