import { afterAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  CorruptDocumentError,
  TooManyPagesSelectedError,
  UnsupportedDocumentError,
} from '../../src/documents/readers/document.errors.js';
import {
  concatDocuments,
  loadDocument,
  loadDocuments,
} from '../../src/documents/readers/document.loader.js';
import { detectDocumentType } from '../../src/documents/readers/file-type.detector.js';
import { terminateOcr } from '../../src/documents/readers/ocr.engine.js';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument } from 'pdf-lib';
import { makeDocx, makePdf, makePng, makeTiff, PAGE_BREAK } from '../support/documents.js';

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const pageTexts = (n: number) =>
  Array.from({ length: n }, (_, i) => `This is page number ${i + 1} of the quarterly report.`);

afterAll(async () => {
  await terminateOcr();
});

describe('detectDocumentType', () => {
  it('detects PDF, DOCX and PNG from content, whatever the name says', async () => {
    expect((await detectDocumentType(await makePdf(['hello world']), 'notes.txt')).fileType).toBe(
      'pdf',
    );
    expect((await detectDocumentType(await makeDocx(['hello']), 'x.pdf')).fileType).toBe('docx');
    expect((await detectDocumentType(makePng('hi'), 'scan.pdf')).fileType).toBe('image');
  });

  it('detects JPEG, WebP, TIFF and GIF images', async () => {
    const canvas = createCanvas(40, 20);
    canvas.getContext('2d').fillRect(0, 0, 10, 10);
    for (const [bytes, mime] of [
      [canvas.toBuffer('image/jpeg'), 'image/jpeg'],
      [canvas.toBuffer('image/webp'), 'image/webp'],
      [makeTiff('x'), 'image/tiff'],
      [
        Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
        'image/gif',
      ],
    ] as const) {
      expect(await detectDocumentType(bytes, 'file.txt')).toEqual({ fileType: 'image', mime });
    }
  });

  it('uses the hint only to tell text flavours apart', async () => {
    expect((await detectDocumentType(utf8('# Title\n\ntext'), 'readme.md')).fileType).toBe('md');
    expect((await detectDocumentType(utf8('# Title'), 'MD')).fileType).toBe('md');
    expect((await detectDocumentType(utf8('plain words'), undefined)).fileType).toBe('txt');
    expect((await detectDocumentType(utf8('<p>hi</p>'), 'page.html')).fileType).toBe('html');
    expect(
      (await detectDocumentType(utf8('<!DOCTYPE html><html><body>x</body></html>'), 'a.txt'))
        .fileType,
    ).toBe('html');
  });

  it('reads a zip named .docx as a DOCX, so one cut before its directory is corrupt, not "a zip"', async () => {
    const docx = await makeDocx(['Invoice number 42', 'Amount due 100 EUR']);
    const cut = docx.subarray(0, Math.floor(docx.length / 2));
    expect(await detectDocumentType(cut, 'f.docx')).toEqual({
      fileType: 'docx',
      mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    await expect(loadDocument(cut, 'f.docx')).rejects.toBeInstanceOf(CorruptDocumentError);
    // Not named a DOCX, the same bytes are a zip, which is no document read here.
    await expect(loadDocument(cut, 'f.bin')).rejects.toBeInstanceOf(UnsupportedDocumentError);
  });

  it('reads UTF-16 text with a byte-order mark as text, though FF FE also opens an MPEG frame', async () => {
    const words = 'Invoice number: Ü-42\nMontant dû: 12 €\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(words, 'utf16le')]);
    const be = Buffer.from(le.subarray(2)).swap16();
    for (const bytes of [le, Buffer.concat([Buffer.from([0xfe, 0xff]), be])]) {
      expect(await detectDocumentType(bytes, 'notes.txt')).toEqual({
        fileType: 'txt',
        mime: 'text/plain',
      });
      expect((await loadDocument(bytes, 'notes.txt')).pages[0].text).toBe(words.trim());
    }
    // Bytes after the mark that are not UTF-16 (an unpaired surrogate) are no text.
    const unpaired = Buffer.from([0xff, 0xfe, 0x00, 0xd8, 0x41, 0x00]);
    await expect(detectDocumentType(unpaired)).rejects.toThrow(UnsupportedDocumentError);
  });

  it('refuses empty, binary and unsupported content with a typed error', async () => {
    await expect(detectDocumentType(new Uint8Array(0))).rejects.toThrow(UnsupportedDocumentError);
    await expect(
      detectDocumentType(new Uint8Array([0, 1, 2, 3, 0, 255, 254, 0, 7])),
    ).rejects.toThrow(UnsupportedDocumentError);
    // A BMP is an image, but not one the decoder (libvips) reads: refused before decoding.
    const bmp = Buffer.alloc(58);
    bmp.write('BM', 0, 'latin1');
    bmp.writeUInt32LE(58, 2);
    bmp.writeUInt32LE(54, 10);
    bmp.writeUInt32LE(40, 14);
    bmp.writeInt32LE(1, 18);
    bmp.writeInt32LE(1, 22);
    bmp.writeUInt16LE(1, 26);
    bmp.writeUInt16LE(24, 28);
    await expect(detectDocumentType(bmp)).rejects.toThrow(/image\/bmp/);
  });

  it('refuses an SVG image, which is markup, rather than reading its markup as text', async () => {
    const svg = (head: string) =>
      Buffer.from(
        `${head}<svg xmlns="http://www.w3.org/2000/svg"><text x="1" y="9">Invoice</text></svg>`,
      );
    for (const head of [
      '',
      '<?xml version="1.0" encoding="UTF-8"?>\n<!-- drawn by hand -->\n',
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">',
    ]) {
      await expect(detectDocumentType(svg(head), 'drawing.txt')).rejects.toThrow(
        /^SVG images are not read: convert the image to PNG or PDF/,
      );
    }
    // Text that mentions or embeds an svg element is still text or HTML.
    await expect(
      detectDocumentType(Buffer.from('Use <svg> for icons.'), 'notes.txt'),
    ).resolves.toMatchObject({ fileType: 'txt' });
    await expect(
      detectDocumentType(Buffer.from('<html><body><svg></svg><p>Hi</p></body></html>')),
    ).resolves.toMatchObject({ fileType: 'html' });
  });
});

describe('loadDocument', () => {
  it('reads the text layer of each selected PDF page, first 5 by default', async () => {
    const doc = await loadDocument(await makePdf(pageTexts(7)));
    expect(doc.fileType).toBe('pdf');
    expect(doc.totalPages).toBe(7);
    expect(doc.pages.map((p) => p.pageNumber)).toEqual([1, 2, 3, 4, 5]);
    expect(doc.pages[2]).toEqual({
      pageNumber: 3,
      text: 'This is page number 3 of the quarterly report.',
      source: 'text-layer',
      size: { width: 612, height: 792, unit: 'pt' },
    });
  });

  it('applies page_range to PDFs', async () => {
    const pdf = await makePdf(pageTexts(12));
    const doc = await loadDocument(pdf, 'a.pdf', {
      pageRange: [{ start: 11 }, { start: 2, end: 2 }],
    });
    expect(doc.pages.map((p) => p.pageNumber)).toEqual([2, 11, 12]);
    expect(doc.pages[1].text).toContain('page number 11');
    await expect(loadDocument(pdf, 'a.pdf', { pageRange: { start: 1 } })).rejects.toThrow(
      TooManyPagesSelectedError,
    );
  });

  it('ignores page_range for other types', async () => {
    const doc = await loadDocument(utf8('one\fpage two\fpage three'), 'x.txt', {
      pageRange: { start: 3, end: 3 },
    });
    expect(doc).toEqual({
      fileType: 'txt',
      totalPages: 3,
      pages: [
        { pageNumber: 1, text: 'one', source: 'native' },
        { pageNumber: 2, text: 'page two', source: 'native' },
        { pageNumber: 3, text: 'page three', source: 'native' },
      ],
    });
  });

  it('reads DOCX paragraphs and splits on explicit page breaks', async () => {
    const docx = await makeDocx([
      'Employment Agreement',
      'The parties agree.',
      PAGE_BREAK,
      'Signatures follow.',
    ]);
    const doc = await loadDocument(docx);
    expect(doc.fileType).toBe('docx');
    expect(doc.totalPages).toBe(2);
    expect(doc.pages[0].text).toContain('Employment Agreement');
    expect(doc.pages[0].text).toContain('The parties agree.');
    expect(doc.pages[1]).toEqual({ pageNumber: 2, text: 'Signatures follow.', source: 'native' });
  });

  it('strips tags, scripts and styles from HTML', async () => {
    const html =
      '<html><head><title>t</title><style>.a{color:red}</style><script>var secret = 1;</script></head>' +
      '<body><h1>Invoice</h1><p>Total <b>due</b>: <a href="http://x.test/pay">pay now</a></p>' +
      '<noscript>enable js</noscript><img src="logo.png" alt="logo"></body></html>';
    const doc = await loadDocument(utf8(html), 'page.html');
    expect(doc.fileType).toBe('html');
    const text = doc.pages[0].text;
    expect(text).toContain('Invoice');
    expect(text).toContain('Total due: pay now');
    expect(text).not.toMatch(/secret|color|x\.test|enable js|<|>/);
  });

  it('keeps Markdown as text', async () => {
    const doc = await loadDocument(utf8('# Résumé\n\n- Python\n- SQL\n'), 'cv.md');
    expect(doc.fileType).toBe('md');
    expect(doc.pages[0].text).toBe('# Résumé\n\n- Python\n- SQL');
  });

  it('reports a broken PDF as corrupt', async () => {
    const pdf = await makePdf(['hello']);
    const broken = Buffer.concat([pdf.subarray(0, 20), Buffer.alloc(200, 0x20)]);
    await expect(loadDocument(broken)).rejects.toThrow(CorruptDocumentError);
  });

  it('refuses a PDF without pages, alone or among other parts', async () => {
    // pdf-lib adds a blank page to a document without pages unless told not to.
    const empty = await (await PDFDocument.create()).save({ addDefaultPage: false });
    await expect(loadDocument(empty)).rejects.toThrow(/The pdf document has no pages/);
    await expect(
      loadDocuments([{ bytes: await makePdf(['hello']) }, { bytes: empty }]),
    ).rejects.toThrow(UnsupportedDocumentError);
  });

  it('reports a broken DOCX as corrupt', async () => {
    const docx = await makeDocx(['hello']);
    await expect(loadDocument(docx.subarray(0, Math.floor(docx.length / 2)))).rejects.toThrow(
      /cannot be read|Unsupported/,
    );
  });
});

describe('loadDocuments (concatenation)', () => {
  it('continues page numbers across parts and applies page_range to PDF pages', async () => {
    const doc = await loadDocuments(
      [
        { bytes: utf8('cover letter'), name: 'cover.txt' },
        { bytes: await makePdf(pageTexts(6)) },
        { bytes: await makeDocx(['appendix']) },
      ],
      { pageRange: { start: 1, end: 3 } },
    );
    expect(doc.fileType).toBe('txt');
    expect(doc.totalPages).toBe(8);
    expect(doc.pages.map((p) => [p.pageNumber, p.text.split(' ')[0]])).toEqual([
      [1, 'cover'],
      [2, 'This'],
      [3, 'This'],
      [8, 'appendix'],
    ]);
    expect(doc.pages[1].text).toContain('page number 1 ');
  });

  it('concatDocuments renumbers already loaded documents', async () => {
    const a = await loadDocument(await makePdf(pageTexts(7)), 'a.pdf', { pageRange: [7] });
    const b = await loadDocument(utf8('x\fy'), 'b.txt');
    const joined = concatDocuments([a, b]);
    expect(joined.totalPages).toBe(9);
    expect(joined.pages.map((p) => p.pageNumber)).toEqual([7, 8, 9]);
  });
});

describe('loadDocument on damaged input', () => {
  /** Any outcome but a typed document error or a result is a bug (it would be a 500). */
  async function outcome(bytes: Uint8Array): Promise<string> {
    try {
      await loadDocument(bytes, 'file.bin');
      return 'ok';
    } catch (error) {
      if (error instanceof UnsupportedDocumentError || error instanceof CorruptDocumentError) {
        return 'typed';
      }
      throw error;
    }
  }

  it('gives a result or a typed error for random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 0, maxLength: 2048 }), async (bytes) => {
        expect(['ok', 'typed']).toContain(await outcome(bytes));
      }),
      { numRuns: 150 },
    );
  });

  it('gives a result or a typed error for truncated and bit-flipped PDFs and DOCX files', async () => {
    const pdf = await makePdf(['Invoice number 4411', 'Total amount due']);
    const docx = await makeDocx(['Employment Agreement', 'The parties agree.']);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(pdf, docx),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 255 }),
        async (file, cut, flip) => {
          const bytes = Buffer.from(file.subarray(0, Math.floor(file.length * cut)));
          if (bytes.length > 8) bytes[Math.floor(bytes.length / 2)] ^= flip;
          expect(['ok', 'typed']).toContain(await outcome(bytes));
        },
      ),
      { numRuns: 80 },
    );
  }, 120_000);
});
