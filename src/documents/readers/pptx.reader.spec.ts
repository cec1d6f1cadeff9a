import { describe, expect, it } from '@jest/globals';
import JSZip from 'jszip';
import { makePptx } from '../../../test/support/office-documents.js';
import { loadLayoutDocument } from '../parse/layout.loader.js';
import { pageText } from '../parse/layout.types.js';
import { loadDocument } from './document.loader.js';
import { CorruptDocumentError } from './document.errors.js';
import { officePageText } from './office-blocks.js';
import { pptxPages } from './pptx.reader.js';

const texts = async (bytes: Buffer) =>
  (await pptxPages(bytes)).map((page) => officePageText(page.blocks, 'marked'));

describe('pptxPages', () => {
  it('reads slides in presentation order, not in the order of their part names', async () => {
    const deck = await makePptx(
      [
        { shapes: [{ title: 'First' }] },
        { shapes: [{ title: 'Second' }] },
        { shapes: [{ title: 'Third' }] },
      ],
      { partOrder: [3, 1, 2] },
    );
    expect(await texts(deck)).toEqual(['# First', '# Second', '# Third']);
  });

  it("orders shapes by their top edge then their left edge, a group's children placed by its transform", async () => {
    const deck = await makePptx([
      {
        shapes: [
          { text: ['bottom'], at: [0.5, 4] },
          { text: ['top right'], at: [6, 1] },
          // Child coordinates 0..4 in scaled by a half onto 1..3: "grouped" lands at y 1.5.
          { group: [{ text: ['grouped'], at: [0, 1] }], at: [1, 1], scale: 0.5 },
          { text: ['top left'], at: [0.5, 1] },
          { title: 'Heading' },
        ],
      },
    ]);
    expect(await texts(deck)).toEqual(['# Heading\n\ntop left\n\ntop right\n\ngrouped\n\nbottom']);
  });

  it('places a placeholder without its own position where its layout or master puts it', async () => {
    // The body placeholder has no position on the slide: its layout puts it at y 1.6 inches,
    // below the text box at 1 inch and above the one at 3; the title is at 0.3 (its master).
    const deck = await makePptx([
      {
        shapes: [
          { text: ['lower'], at: [0.5, 3] },
          { body: ['point'] },
          { text: ['upper'], at: [0.5, 1] },
          { title: 'Top' },
        ],
      },
    ]);
    expect(await texts(deck)).toEqual(['# Top\n\nupper\n\n* point\n\nlower']);
  });

  it('reads body paragraphs as list items with their levels, unless a paragraph drops its bullet', async () => {
    const deck = await makePptx([
      {
        shapes: [
          { title: 'Plan', centred: true },
          {
            body: [
              'Hire',
              { text: 'two engineers', level: 1 },
              { text: 'A closing remark', bullet: false },
            ],
          },
          { text: ['Plain box', { text: 'bulleted box', bullet: true }], at: [0.5, 5] },
        ],
      },
    ]);
    expect(await texts(deck)).toEqual([
      '# Plan\n\n* Hire\n  * two engineers\n\nA closing remark\n\nPlain box\n\n* bulleted box',
    ]);
  });

  it("reads tables with a merged cell's text once, and leaves speaker notes and hidden slides out", async () => {
    const deck = await makePptx([
      {
        shapes: [
          {
            table: [
              ['Region', 'Sales'],
              ['EMEA', 'stale copy'],
            ],
            merged: [[1, 1]],
            at: [1, 1],
          },
        ],
        notes: 'Do not read this aloud',
      },
      { shapes: [{ title: 'Backup slide' }], hidden: true },
    ]);
    expect(await texts(deck)).toEqual(['| Region | Sales |\n| --- | --- |\n| EMEA |  |']);
  });

  it('gives each slide its size in points, so classification sees landscape pages', async () => {
    const deck = await makePptx([{ shapes: [{ title: 'Wide' }] }, { shapes: [{ title: 'Too' }] }]);
    const document = await loadDocument(deck, 'deck.pptx');
    expect(document).toMatchObject({ fileType: 'pptx', totalPages: 2 });
    expect(document.pages.map((page) => page.size)).toEqual([
      { width: 720, height: 405, unit: 'pt' },
      { width: 720, height: 405, unit: 'pt' },
    ]);
    const portrait = await loadDocument(
      await makePptx([{ shapes: [{ title: 'Tall' }] }], { size: [7.5, 10] }),
      'tall.pptx',
    );
    expect(portrait.pages[0].size).toEqual({ width: 540, height: 720, unit: 'pt' });
  });

  it('lays slides out as parse reads a DOCX: titles larger, list items, table rows in columns', async () => {
    const deck = await makePptx([
      {
        shapes: [
          { title: 'Results' },
          { body: ['Revenue up'] },
          {
            table: [
              ['Region', 'Sales'],
              ['EMEA', '10'],
            ],
            at: [1, 4],
          },
        ],
      },
    ]);
    const layout = await loadLayoutDocument(deck, 'deck.pptx');
    const [page] = layout.pages;
    expect(pageText(page)).toBe('Results\n* Revenue up\nRegion Sales\nEMEA 10');
    expect(page.lines[0].size).toBeGreaterThan(page.lines[1].size);
    expect(page.lines[2].segments.map((segment) => segment.text)).toEqual(['Region', 'Sales']);
  });

  it('refuses a deck listing a slide it does not hold, naming the slide', async () => {
    const deck = await makePptx([{ shapes: [{ title: 'One' }] }, { shapes: [{ title: 'Two' }] }]);
    const zip = await JSZip.loadAsync(deck);
    zip.remove('ppt/slides/slide2.xml');
    const broken = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    const error = await pptxPages(broken).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptDocumentError);
    expect((error as Error).message).toContain('slide 2');
  });
});
