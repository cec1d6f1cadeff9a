import { describe, expect, it } from '@jest/globals';
import { makeDrawnPdf } from '../../../test/support/drawn-pdfs.js';
import { makePdf } from '../../../test/support/documents.js';
import { formBlocks } from '../parse/layout.engines.js';
import { loadLayoutDocument } from '../parse/layout.loader.js';
import { loadDocument } from './document.loader.js';
import { joinHyphenatedLines, joinParagraphLines, writtenWords } from './line-hyphenation.js';

const pageTexts = async (bytes: Uint8Array, name: string) =>
  (await loadDocument(bytes, name)).pages.map((page) => page.text);

/** The paragraph-blocks layout's block contents of a document, as parse answers them. */
async function parsedBlocks(bytes: Uint8Array, name: string): Promise<string[]> {
  const document = await loadLayoutDocument(bytes, name);
  return formBlocks('paragraph-blocks', document.pages).map((block) => block.content);
}

/** One paragraph per language, typeset with words broken at its lines' ends. */
const HYPHENATED = [
  {
    language: 'en',
    lines: [
      'The annual report describes the docu-',
      'ment of the company and its gover-',
      'nance.',
    ],
    words: ['document', 'governance.'],
  },
  {
    language: 'de',
    lines: [
      'Der Jahresbericht beschreibt die Vermö-',
      'gensverhältnisse und die Verbind-',
      'lichkeiten.',
    ],
    words: ['Vermögensverhältnisse', 'Verbindlichkeiten.'],
  },
  {
    language: 'fr',
    lines: ['Le rapport décrit la connais-', 'sance du marché et les résul-', 'tats annuels.'],
    words: ['connaissance', 'résultats'],
  },
  {
    language: 'pt',
    lines: ['O relatório descreve a situa-', 'ção financeira e as obriga-', 'ções da empresa.'],
    words: ['situação', 'obrigações'],
  },
  {
    language: 'el',
    lines: ['Η έκθεση περιγράφει την οικονο-', 'μική κατάσταση της εται-', 'ρείας.'],
    words: ['οικονομική', 'εταιρείας.'],
  },
  {
    language: 'ru',
    lines: ['Отчёт описывает финансо-', 'вое положение и обяза-', 'тельства компании.'],
    words: ['финансовое', 'обязательства'],
  },
];

describe('words broken at a line end', () => {
  it.each(HYPHENATED)(
    'reads $language words broken in a PDF whole in parse blocks; classification reads the lines as written',
    async ({ lines, words }) => {
      // A title above the paragraph, which is set in lines 15 points apart.
      const pdf = await makeDrawnPdf([['1.'], [], ...lines.map((line) => [line])], [], 15);
      const blocks = await parsedBlocks(pdf, 'report.pdf');
      for (const word of words) expect(blocks.join(' ').split(' ')).toContain(word);
      const [text] = await pageTexts(pdf, 'report.pdf');
      expect(text.split('\n').slice(1)).toEqual(lines);
      // Read by the general rule, the page's lines complete each word on its first line.
      const joined = joinHyphenatedLines(text);
      for (const word of words) expect(joined.split(/\s+/)).toContain(word);
      expect(joined.split('\n')[1]).toMatch(new RegExp(`${words[0]}$`, 'u'));
    },
  );

  it('keeps a compound the document writes with its hyphen, and hyphens before a capital or digit', () => {
    const text = [
      'Self-employed workers file a return. Every self-',
      'employed worker, the Ost-',
      'West route and COVID-',
      '19 rules; a well-',
      'known case.',
    ].join('\n');
    expect(joinHyphenatedLines(text)).toBe(
      [
        'Self-employed workers file a return. Every self-employed',
        'worker, the Ost-',
        'West route and COVID-',
        '19 rules; a wellknown',
        'case.',
      ].join('\n'),
    );
    expect(
      joinParagraphLines(['the Ost-', 'West route, COVID-', '19 rules and a docu-', 'ment']),
    ).toBe('the Ost-West route, COVID-19 rules and a document');
  });

  it('joins a word the document writes whole although its next line starts with a capital', () => {
    const text = 'THE ANNUAL REPORT\nTHE ANNUAL RE-\nPORT OF THE BOARD';
    expect(joinHyphenatedLines(text)).toBe('THE ANNUAL REPORT\nTHE ANNUAL REPORT\nOF THE BOARD');
  });

  it('drops soft hyphens, joining the word at a line end, for classification too', async () => {
    const text = 'An infor\u00admation sheet on the docu\u00ad\nment, and a well-\nknown one.';
    expect(await pageTexts(Buffer.from(text), 'sheet.txt')).toEqual([
      'An information sheet on the document,\nand a well-\nknown one.',
    ]);
  });

  it('leaves lines without a hyphen between letters as they are', async () => {
    const text = 'Total -\n12.00\nItems:\n- first\n- second';
    expect(await pageTexts(Buffer.from(text), 'list.txt')).toEqual([text]);
    const pdf = await makePdf(['Pages 10-\n20 of the annex']);
    expect(await pageTexts(pdf, 'annex.pdf')).toEqual(['Pages 10-\n20 of the annex']);
  });

  it.each([
    {
      language: 'de',
      lines: [
        'Die Zölle für die Ein-',
        'und Ausfuhr oder für Import-',
        'oder Exportgeschäfte und Steuern.',
      ],
      text: 'Die Zölle für die Ein- und Ausfuhr oder für Import- oder Exportgeschäfte und Steuern.',
    },
    {
      language: 'en',
      lines: ['The data need pre-', 'and post-processing and the docu-', 'ment and its copy.'],
      text: 'The data need pre- and post-processing and the document and its copy.',
    },
    {
      language: 'fr',
      lines: ['Les données et le pré-', 'et post-traitement et les résul-', 'tats et leur copie.'],
      text: 'Les données et le pré- et post-traitement et les résultats et leur copie.',
    },
  ])('keeps a $language suspended hyphen and the space after it', async ({ lines, text }) => {
    expect(joinParagraphLines(lines, writtenWords(lines.join('\n')))).toBe(text);
    const pdf = await makeDrawnPdf([['1.'], [], ...lines.map((line) => [line])], [], 15);
    expect(await parsedBlocks(pdf, 'tariffs.pdf')).toContain(text);
  });
});
