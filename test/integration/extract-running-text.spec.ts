/**
 * Extract reads values that have no label: a contract's title line and the values written
 * inside its sentences, read by the field's type from the sentence that says what the
 * field asks. The document is generated here; the encoder is the installed one.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { JsonSchema } from '../../src/documents/extract/extract-schema.js';
import { extractDocument } from '../../src/documents/extract/extract.operation.js';
import { loadLayoutDocument } from '../../src/documents/parse/layout.loader.js';
import type { LayoutDocument } from '../../src/documents/parse/layout.types.js';
import { makeLayoutPdf } from '../support/layout-documents.js';

const schema: JsonSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', description: 'The title of the agreement' },
    agreement_date: { type: 'string', format: 'date', description: 'The date of the agreement' },
    governing_law: {
      type: 'string',
      description: 'The state or country whose law governs the agreement',
    },
    arbitration_city: {
      type: 'string',
      description: 'The city where an arbitration would be held',
    },
  },
};

const filler =
  'The Distributor shall use commercially reasonable efforts to promote and sell the Products ' +
  'in the Territory and shall keep complete and accurate records of all sales made under it.';

let doc: LayoutDocument;

beforeAll(async () => {
  const pdf = await makeLayoutPdf([
    {
      footer: 'Page 1',
      elements: [
        { lines: ['Exhibit 10.2'] },
        { title: 'DISTRIBUTION AGREEMENT' },
        {
          paragraph:
            'This Distribution Agreement (the "Agreement") is made and entered into as of the ' +
            '14th day of July, 2021 by and between Northwind Traders, Inc., a company organized ' +
            'under the laws of Nevada, and Contoso Ltd. (the "Distributor").',
        },
        { heading: '1. Appointment' },
        { paragraph: filler },
        { heading: '12. Governing Law' },
        {
          paragraph:
            'This Agreement shall be governed by and construed in accordance with the laws of ' +
            'the State of Oregon, without regard to its conflict of laws principles.',
        },
      ],
    },
    {
      footer: 'Page 2',
      elements: [
        {
          paragraph: `${filler} Payments are due on 31 December 2024 at the latest.`,
        },
        {
          keyValues: [
            ['By', '/s/ Jane Roe'],
            ['Name', 'Jane Roe'],
            ['Title', 'Vice President'],
          ],
        },
      ],
    },
  ]);
  doc = await loadLayoutDocument(pdf.bytes, 'agreement.pdf');
});

describe('extract from running text', () => {
  it.each([false, true])('reads the title line and values inside sentences (deep: %s)', (deep) => {
    const { result } = extractDocument(doc, schema, {
      engine: 'label-typed',
      deepEngine: deep ? 'fuzzy-synonyms-described' : undefined,
      citations: false,
    });
    expect(result).toEqual({
      // The document's title, not the signatory's "Title: Vice President".
      title: 'DISTRIBUTION AGREEMENT',
      agreement_date: '2021-07-14',
      // The state named in the governing-law clause, not the one a party is organized in.
      governing_law: 'Oregon',
      // Nothing in the document says where an arbitration would be held.
      arbitration_city: null,
    });
  });

  it('cites the sentence a value was read from', () => {
    const { result } = extractDocument(doc, schema, { engine: 'label-typed', citations: true });
    const law = result.governing_law as {
      value: string;
      citations: { content: string; bbox: { page: number } }[];
    };
    expect(law.value).toBe('Oregon');
    expect(law.citations.map((c) => c.content).join(' ')).toContain('State of Oregon');
    expect(law.citations[0].bbox.page).toBe(1);
    const missing = result.arbitration_city as { value: unknown; confidence: string };
    expect(missing).toMatchObject({ value: null, confidence: 'low' });
  });

  it('takes a place the clause names in two parts whole', async () => {
    const pdf = await makeLayoutPdf([
      {
        footer: 'Page 1',
        elements: [
          { title: 'SERVICES AGREEMENT' },
          { paragraph: filler },
          { heading: '9. Governing Law' },
          {
            paragraph:
              'This Agreement shall be governed by the laws of Geneva, Switzerland, without ' +
              'regard to its conflict of laws principles.',
          },
        ],
      },
    ]);
    const twoPart = await loadLayoutDocument(pdf.bytes, 'services.pdf');
    for (const deep of [false, true]) {
      const { result } = extractDocument(twoPart, schema, {
        engine: 'label-typed',
        deepEngine: deep ? 'fuzzy-synonyms-described' : undefined,
        citations: false,
      });
      expect([deep, result.governing_law]).toEqual([deep, 'Geneva, Switzerland']);
    }
  });

  it('takes the title line over a label that only says "Title" again', async () => {
    const pdf = await makeLayoutPdf([
      {
        elements: [
          { title: 'HOSTING AGREEMENT' },
          { paragraph: filler },
          {
            table: [
              ['Name (type or print)', 'Date', 'Name (type or print)'],
              ['Title', '', 'Title'],
            ],
          },
        ],
      },
    ]);
    const signed = await loadLayoutDocument(pdf.bytes, 'hosting.pdf');
    for (const deep of [false, true]) {
      const { result } = extractDocument(signed, schema, {
        engine: 'label-typed',
        deepEngine: deep ? 'fuzzy-synonyms-described' : undefined,
        citations: false,
      });
      expect([deep, result.title]).toEqual([deep, 'HOSTING AGREEMENT']);
    }
  });

  it('bounds the encoder work of a schema with many unlabelled fields', () => {
    const many: JsonSchema = {
      type: 'object',
      properties: {
        governing_law: schema.properties?.governing_law ?? {},
        ...Object.fromEntries(
          Array.from({ length: 40 }, (_, i) => [
            `clause_${i}`,
            { type: 'string', description: `The party named in clause ${i} of the agreement` },
          ]),
        ),
      },
    };
    const { result } = extractDocument(doc, many, {
      engine: 'label-typed',
      deepEngine: 'fuzzy-synonyms-described',
      citations: false,
    });
    // The first field searched is reranked by the encoder; later ones past the per-document
    // budget by their shared words alone: all are answered or null, none is an error.
    expect(result.governing_law).toBe('Oregon');
    expect(Object.keys(result)).toHaveLength(41);
  });
});
