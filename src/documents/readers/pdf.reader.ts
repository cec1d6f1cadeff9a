import path from 'node:path';
import { createRequire } from 'node:module';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/types/src/pdf.js';
import { CorruptDocumentError, DocumentPasswordError } from './document.errors.js';
import { documentLimits } from './document-limits.js';
import type { PageSize, PageTextSource } from './document.types.js';
import { recognizeImage, type OcrEffort } from './ocr.engine.js';
import { formFieldTexts } from './pdf-form-fields.js';
import { joinedWordParts, mendTextItems } from './pdf-text-items.js';
import { readTextPage, type PdfTextPage } from './pdf-text-page.js';
import { installPdfWorker } from './pdfjs-worker.js';
import { BULLET_TEXT, markedRuns } from './vector-bullets.js';

const require = createRequire(import.meta.url);

/** Pages with fewer letters/digits than this in their text layer are treated as scans. */
const MIN_TEXT_LAYER_CHARS = 16;
/** Render scale for OCR (2 = 144 dpi) and a cap on the longer side in pixels. */
const OCR_SCALE = 2;
const OCR_MAX_SIDE = 3000;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;

/**
 * The legacy build is the one meant for Node; loaded once on first use, with the worker that
 * keeps right-to-left ligatures in logical order.
 */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= installPdfWorker().then(() => import('pdfjs-dist/legacy/build/pdf.mjs'));
  return pdfjs;
}

function assetDir(name: string): string {
  return path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), name) + path.sep;
}

interface ExtractedPage {
  text: string;
  source: PageTextSource;
  /** The page's size in points, as displayed (rotation applied). */
  size: PageSize;
}

interface PdfReader {
  numPages: number;
  /** Text of page `pageNumber` (1-indexed): the text layer, or OCR when it has none. */
  readPage(pageNumber: number): Promise<ExtractedPage>;
  close(): Promise<void>;
}

/**
 * A space pdf.js puts between two text items that are both Chinese or Japanese characters
 * (or their punctuation). Those scripts write no space between words, and a PDF that places
 * each glyph on its own (common from TeX and design tools) comes out as "发 票 号 码": read
 * so, no word of the page is whole for the encoder, the labels of extract or a
 * criterion's words. Korean separates its words with spaces and is left as it is.
 */
const SPACE_INSIDE_CJK =
  /(?<=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff01-\uff60]) (?=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff01-\uff60])/gu;

/** The text of a page from pdf.js's text items (mended: pdf-text-items.ts), in their order. */
export function textOf(items: readonly unknown[]): string {
  return joinedText(joinedWordParts(mendTextItems(items)));
}

/**
 * The text of mended items in their order; the items of `listItems` (those a bullet drawn as
 * a shape marks) start with the marker a bullet glyph would give them.
 */
function joinedText(
  items: readonly unknown[],
  listItems: ReadonlySet<unknown> = new Set(),
): string {
  let text = '';
  for (const item of items) {
    if (typeof item !== 'object' || item === null || !('str' in item)) continue;
    const { str, hasEOL } = item as { str: string; hasEOL?: boolean };
    const marker = listItems.has(item) ? `${BULLET_TEXT} ` : '';
    text += marker + str + (hasEOL ? '\n' : ' ');
  }
  return text
    .replace(/[ \t]+/g, ' ')
    .replace(SPACE_INSIDE_CJK, '')
    .replace(/ *\n */g, '\n')
    .trim();
}

/**
 * The text items of a page that a bullet drawn as a shape marks as list items, by parse's
 * rule (vector-bullets.ts), so the page text counts those lists as it counts glyph bullets.
 */
async function itemsMarkedByShapes({ runs, shapes }: PdfTextPage): Promise<Set<unknown>> {
  if (runs.length === 0) return new Set();
  const painted = await shapes(Math.max(...runs.map((run) => run.size)));
  return new Set([...markedRuns(painted, runs).keys()].map((run) => run.item));
}

function alnumCount(text: string): number {
  return (text.match(/[\p{L}\p{N}]/gu) ?? []).length;
}

/** PNG of a page at OCR resolution (also used by parse for OCR line boxes). */
export async function renderPng(page: PDFPageProxy, pdf: PDFDocumentProxy): Promise<Buffer> {
  const base = page.getViewport({ scale: 1 });
  const scale = Math.min(OCR_SCALE, OCR_MAX_SIDE / Math.max(base.width, base.height));
  const viewport = page.getViewport({ scale });
  // pdf.js's Node canvas factory uses @napi-rs/canvas.
  const factory = (pdf as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
  const { canvas, context } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  const params = { canvas, canvasContext: context, viewport } as unknown as RenderParameters;
  await page.render(params).promise;
  const png = canvas.toBuffer('image/png');
  factory.destroy({ canvas, context });
  return png;
}

type RenderParameters = Parameters<PDFPageProxy['render']>[0];
interface NodeContext {
  fillStyle: string;
  fillRect(x: number, y: number, width: number, height: number): void;
}
interface NodeCanvas {
  width: number;
  height: number;
  toBuffer(mime: 'image/png'): Buffer;
}
interface CanvasFactory {
  create(width: number, height: number): { canvas: NodeCanvas; context: NodeContext };
  destroy(entry: { canvas: NodeCanvas; context: NodeContext }): void;
}

/** A one-page PDF with a line of Helvetica text, read once to warm pdf.js up. */
const WARM_UP_PDF =
  'JVBERi0xLjcKJYGBgYEKCjEgMCBvYmoKPDwKL1R5cGUgL1BhZ2VzCi9LaWRzIFsgNCAwIFIgXQovQ291' +
  'bnQgMQo+PgplbmRvYmoKCjIgMCBvYmoKPDwKL1R5cGUgL0NhdGFsb2cKL1BhZ2VzIDEgMCBSCj4+CmVu' +
  'ZG9iagoKMyAwIG9iago8PAovVHlwZSAvRm9udAovU3VidHlwZSAvVHlwZTEKL0Jhc2VGb250IC9IZWx2' +
  'ZXRpY2EKL0VuY29kaW5nIC9XaW5BbnNpRW5jb2RpbmcKPj4KZW5kb2JqCgo0IDAgb2JqCjw8Ci9UeXBl' +
  'IC9QYWdlCi9QYXJlbnQgMSAwIFIKL1Jlc291cmNlcyA8PAovRm9udCA8PAovSGVsdmV0aWNhLTcwOTg0' +
  'ODA3ODkgMyAwIFIKPj4KL1hPYmplY3QgPDwKPj4KL0V4dEdTdGF0ZSA8PAo+Pgo+PgovTWVkaWFCb3gg' +
  'WyAwIDAgMjAwIDEwMCBdCi9Bbm5vdHMgWyBdCi9Db250ZW50cyBbIDUgMCBSIF0KPj4KZW5kb2JqCgo1' +
  'IDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggMTI1Cj4+CnN0cmVhbQp4nB2KSwoC' +
  'QQwF9zlF1oKYhHy6QWahM+DCjZALiIyijAtFPL9t8+BBFfWCXQLhf+8bbA7z8p0/98t5HVSLFopSkQXz' +
  'CqKYR+CeMjKhEeYTthbOIT4KhQW1Vy9uQkaq6p0tSqiQ71tZG0mz4ubs2mkaMB+QK5gSTvADd7Ifogpl' +
  'bmRzdHJlYW0KZW5kb2JqCgp4cmVmCjAgNgowMDAwMDAwMDAwIDY1NTM1IGYgCjAwMDAwMDAwMTYgMDAw' +
  'MDAgbiAKMDAwMDAwMDA3NiAwMDAwMCBuIAowMDAwMDAwMTI2IDAwMDAwIG4gCjAwMDAwMDAyMjQgMDAw' +
  'MDAgbiAKMDAwMDAwMDQxOSAwMDAwMCBuIAoKdHJhaWxlcgo8PAovU2l6ZSA2Ci9Sb290IDIgMCBSCj4+' +
  'CgpzdGFydHhyZWYKNjE3CiUlRU9G';

/**
 * Loads pdf.js and reads a tiny PDF, so the first real document in this thread does not pay
 * for module loading (hundreds of ms).
 */
export async function warmUpPdf(): Promise<void> {
  const pdf = await openPdf(Buffer.from(WARM_UP_PDF, 'base64'));
  try {
    await pdf.readPage(1);
  } finally {
    await pdf.close();
  }
}

/** pdf.js's PasswordException codes (PasswordResponses). */
const NEED_PASSWORD = 1;
const INCORRECT_PASSWORD = 2;

/**
 * Opens a PDF with pdf.js (the legacy Node build, bundled fonts, cmaps and wasm); a
 * CorruptDocumentError when it cannot be read, a DocumentPasswordError when it is encrypted
 * with a user password that `password` is not (or is absent). Also used by parse for text
 * positions.
 */
export async function openPdfDocument(
  bytes: Uint8Array,
  password?: string,
): Promise<PDFDocumentProxy> {
  const { getDocument } = await loadPdfJs();
  try {
    return await getDocument({
      // A copy: pdf.js may transfer (detach) the buffer it is given.
      data: new Uint8Array(bytes),
      ...(password ? { password } : {}),
      standardFontDataUrl: assetDir('standard_fonts'),
      cMapUrl: assetDir('cmaps'),
      cMapPacked: true,
      wasmUrl: assetDir('wasm'),
      iccUrl: assetDir('iccs'),
      isEvalSupported: false,
      // Embedded images past MAX_IMAGE_PIXELS are skipped instead of decoded.
      maxImageSize: documentLimits().maxImagePixels,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    }).promise;
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException') {
      const code = (error as Error & { code?: number }).code;
      // pdf.js answers a wrong password with INCORRECT_PASSWORD, a missing one with NEED_PASSWORD.
      if (code === INCORRECT_PASSWORD || (code !== NEED_PASSWORD && password)) {
        throw new DocumentPasswordError('password_incorrect');
      }
      throw new DocumentPasswordError('password_required');
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new CorruptDocumentError('pdf', `The PDF cannot be read: ${reason}`, { cause: error });
  }
}

/**
 * Opens a PDF for page-by-page reading; only the pages asked for are parsed. A page without
 * a usable text layer is rendered and read with `ocr` effort.
 */
export async function openPdf(
  bytes: Uint8Array,
  ocr: OcrEffort = 'fast',
  password?: string,
): Promise<PdfReader> {
  const pdf = await openPdfDocument(bytes, password);
  return {
    numPages: pdf.numPages,
    async readPage(pageNumber) {
      const page = await pdf.getPage(pageNumber);
      try {
        const { width, height } = page.getViewport({ scale: 1 });
        const size: PageSize = { width: Math.round(width), height: Math.round(height), unit: 'pt' };
        const textPage = await readTextPage(pdf, page);
        const text = joinedText(textPage.items);
        // A filled form's values are annotations over the page, not its text: added to it,
        // but whether the page is a scan is decided on its own text.
        const fields = (await formFieldTexts(page)).map((field) => field.text);
        const withFields = (read: string) => [read, ...fields].join('\n').trim();
        // Text of fonts without a Unicode map is their codes (pdf-unmapped-fonts.ts): a page
        // mostly of it is read as a scan is.
        if (alnumCount(text) >= MIN_TEXT_LAYER_CHARS && !textPage.unread) {
          const listItems = await itemsMarkedByShapes(textPage);
          return {
            text: withFields(joinedText(textPage.items, listItems)),
            source: 'text-layer',
            size,
          };
        }
        const ocrText = (await recognizeImage(await renderPng(page, pdf), ocr)).trim();
        return alnumCount(ocrText) > alnumCount(text)
          ? { text: withFields(ocrText), source: 'ocr', size }
          : { text: withFields(text), source: 'text-layer', size };
      } finally {
        page.cleanup();
      }
    },
    async close() {
      await pdf.destroy();
    },
  };
}
