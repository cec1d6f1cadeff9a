import mammoth from 'mammoth';
import { CorruptDocumentError } from './document.errors.js';
import { htmlToText, type StructureMarks } from './html.reader.js';

/** A marker element mammoth emits for explicit page breaks; DOCX bodies never contain one. */
const PAGE_BREAK_MARKER = 'hr.docproc-page-break';
const PAGE_BREAK = /<hr class="docproc-page-break"\s*\/?>/;

/**
 * Text of a DOCX, one entry per page. Word files carry no fixed pagination, so a page is
 * what lies between explicit page breaks; a document without any is one page. Headings
 * and tables come out as `marks` says (Word's heading styles are HTML headings to mammoth).
 */
export async function docxPages(
  bytes: Uint8Array,
  marks: StructureMarks = 'plain',
): Promise<string[]> {
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      { styleMap: [`br[type='page'] => ${PAGE_BREAK_MARKER}`], ignoreEmptyParagraphs: true },
    );
    html = result.value;
  } catch (error) {
    throw new CorruptDocumentError(
      'docx',
      `The DOCX cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const pages = html.split(PAGE_BREAK).map((part) => htmlToText(part, marks));
  const kept = pages.filter((page, index) => page !== '' || index === 0);
  return kept.length > 0 ? kept : [''];
}
