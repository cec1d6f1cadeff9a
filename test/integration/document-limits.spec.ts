import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import JSZip from 'jszip';
import { loadDocument, loadDocuments } from '../../src/documents/readers/document.loader.js';
import {
  DEFAULT_DOCUMENT_LIMITS,
  DocumentLimitError,
  setDocumentLimits,
} from '../../src/documents/readers/document-limits.js';
import {
  CorruptDocumentError,
  PageSelectionError,
} from '../../src/documents/readers/document.errors.js';
import { terminateOcr } from '../../src/documents/readers/ocr.engine.js';
import { loadLayoutDocuments } from '../../src/documents/parse/layout.loader.js';
import { makeDeepHtml, makeDocxBomb, makePngBomb } from '../support/bombs.js';
import { makeDocx, makePdf, makePng } from '../support/documents.js';

afterEach(() => setDocumentLimits(DEFAULT_DOCUMENT_LIMITS));
afterAll(() => terminateOcr());

/** The DocumentLimitError `promise` rejects with, for its fields. */
async function limitError(promise: Promise<unknown>): Promise<DocumentLimitError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DocumentLimitError);
  return error as DocumentLimitError;
}

describe('document input limits, checked before decoding', () => {
  it('refuses a 60,000 x 60,000 PNG from its header, for classify and for parse', async () => {
    const bomb = await makePngBomb(60_000, 60_000);
    expect(bomb.length).toBeLessThan(4_000_000);
    // CPU time, not wall-clock: decoding 3.6 gigapixels would take minutes of it, and a
    // loaded machine stretches only the wall-clock.
    const started = process.cpuUsage();
    const error = await limitError(loadDocument(bomb, 'bomb.png'));
    expect(error.limit).toBe('MAX_IMAGE_PIXELS');
    expect(error.status).toBe(413);
    expect(error.message).toContain('60000 x 60000');
    await limitError(loadLayoutDocuments([{ bytes: bomb, name: 'bomb.png' }]));
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(2_000);
  });

  it('reads an image within the limit', async () => {
    setDocumentLimits({ ...DEFAULT_DOCUMENT_LIMITS, maxImagePixels: 1275 * 300 });
    await expect(loadDocument(makePng('Invoice 42', 1275))).resolves.toMatchObject({
      fileType: 'image',
    });
  });

  it('reads a header cut short as corrupt, never from the memory beyond the document', async () => {
    // The first 20 bytes of a PNG end inside its header, after the width; the bytes that
    // follow them in memory (another document's, say) declare a height of 2^31 - 1.
    const memory = Buffer.concat([
      makePng('Invoice 42').subarray(0, 20),
      Buffer.from('7fffffff', 'hex'),
    ]);
    const error = await loadDocument(memory.subarray(0, 20), 'cut.png').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CorruptDocumentError);
    expect((error as Error).message).toMatch(/^The image header cannot be read/);
  });

  it('refuses a DOCX whose XML inflates past the size or ratio limit, from its directory', async () => {
    const bomb = await makeDocxBomb(300 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(2_000_000);
    const rss = process.memoryUsage.rss();
    const error = await limitError(loadDocument(bomb, 'bomb.docx'));
    expect(error.limit).toBe('MAX_ZIP_UNCOMPRESSED_BYTES');
    expect(process.memoryUsage.rss() - rss).toBeLessThan(100 * 1024 * 1024);
    setDocumentLimits({ ...DEFAULT_DOCUMENT_LIMITS, maxZipUncompressedBytes: 2 ** 40 });
    expect((await limitError(loadDocument(bomb, 'bomb.docx'))).limit).toBe(
      'MAX_ZIP_COMPRESSION_RATIO',
    );
  });

  it('reads an ordinary DOCX', async () => {
    const doc = await loadDocument(await makeDocx(['Invoice number 7']));
    expect(doc.pages[0].text).toContain('Invoice number 7');
  });

  it('refuses deeply nested HTML and DOCX XML with a 422 naming MAX_MARKUP_DEPTH', async () => {
    const html = await limitError(loadDocument(makeDeepHtml(100_000), 'deep.html'));
    expect(html.limit).toBe('MAX_MARKUP_DEPTH');
    expect(html.status).toBe(422);
    await limitError(loadLayoutDocuments([{ bytes: makeDeepHtml(100_000), name: 'deep.html' }]));
    await expect(loadDocument(makeDeepHtml(50), 'ok.html')).resolves.toMatchObject({
      fileType: 'html',
    });
    setDocumentLimits({ ...DEFAULT_DOCUMENT_LIMITS, maxMarkupDepth: 5 });
    const docx = await limitError(loadDocument(await makeDocx(['nested'])));
    expect(docx.message).toContain('word/');
  });

  it('refuses a DOCX part declaring a document type as corrupt, saying so, before any entity is read', async () => {
    const zip = await JSZip.loadAsync(await makeDocx(['Invoice number 7']));
    const part = await zip.file('word/document.xml')!.async('string');
    const entities =
      '<!DOCTYPE w:document [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>';
    zip.file(
      'word/document.xml',
      part.replace(/^(<\?xml[^>]*\?>)?/, (declaration) => declaration + entities),
    );
    const error = await loadDocument(await zip.generateAsync({ type: 'nodebuffer' })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CorruptDocumentError);
    expect((error as Error).message).toBe(
      'The DOCX part word/document.xml declares a document type (<!DOCTYPE>), which Office ' +
        'documents never carry; it is not read (save the document again from its editor)',
    );
  });

  it('refuses more pages than MAX_DOCUMENT_PAGES before reading any', async () => {
    setDocumentLimits({ ...DEFAULT_DOCUMENT_LIMITS, maxPages: 3 });
    const pdf = await makePdf(['one', 'two']);
    const error = await limitError(
      loadDocuments([
        { bytes: pdf, name: 'a.pdf' },
        { bytes: pdf, name: 'b.pdf' },
      ]),
    );
    expect(error.limit).toBe('MAX_DOCUMENT_PAGES');
    expect(error.message).toContain('4 pages');
  });

  it('reads at most MAX_PARSE_PAGES PDF pages for parse, naming the setting and page_range', async () => {
    setDocumentLimits({ ...DEFAULT_DOCUMENT_LIMITS, maxParsePages: 2 });
    const pdf = await makePdf(['one', 'two', 'three']);
    const error = await loadLayoutDocuments([{ bytes: pdf, name: 'a.pdf' }]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PageSelectionError);
    const refusal = error as PageSelectionError;
    expect(refusal.kind).toBe('too_many_pages');
    expect(refusal.message).toContain('MAX_PARSE_PAGES=2');
    expect(refusal.message).toContain('page_range');
    expect(refusal.ctx).toEqual({ limit: 2, selected: 3, setting: 'MAX_PARSE_PAGES' });
    const selected = await loadLayoutDocuments([{ bytes: pdf, name: 'a.pdf' }], {
      pageRange: { start: 2, end: 3 },
    });
    expect(selected.pages.map((page) => page.pageNumber)).toEqual([2, 3]);
    // Pages of other documents given with the PDF are read whole and not counted.
    const mixed = await loadLayoutDocuments([
      { bytes: await makeDocx(['a letter']), name: 'a.docx' },
      { bytes: await makePdf(['one', 'two']), name: 'b.pdf' },
    ]);
    expect(mixed.totalPages).toBeGreaterThan(2);
    expect(mixed.pages.length).toBe(mixed.totalPages);
  });
});
