import type { DocumentFileType } from './document.types.js';
import { enforceLimit } from './document-limits.js';
import { checkImageHeader } from './image-limits.js';
import { checkZipDocument } from './zip-limits.js';

/** The XML parts of a DOCX that the reader walks. */
const isWordXml = (name: string) => name.startsWith('word/') && name.endsWith('.xml');
/**
 * The XML parts of a PPTX or XLSX (and their relationships), wherever a package puts them:
 * the readers follow relationships rather than part names.
 */
const isOfficeXml = (name: string) => /\.(xml|rels)$/i.test(name);

/**
 * The limits a document of `fileType` can be checked against before it is decoded: image
 * pixels from the header; a DOCX's, PPTX's or XLSX's inflated size, ratio and XML depth from
 * its zip. HTML depth is checked where HTML is converted (html.reader), pages once they are
 * counted, the cells of sheets and CSV files as they are read.
 */
export async function checkDocumentInput(
  bytes: Uint8Array,
  fileType: DocumentFileType,
): Promise<void> {
  if (fileType === 'image') checkImageHeader(bytes);
  else if (fileType === 'docx') await checkZipDocument(bytes, 'docx', isWordXml);
  else if (fileType === 'pptx' || fileType === 'xlsx') {
    await checkZipDocument(bytes, fileType, isOfficeXml);
  }
}

/** Pages of a request's documents together, counted before any page is read. */
export function checkPageCount(totalPages: number): void {
  enforceLimit(
    'maxPages',
    totalPages,
    (max) => `The documents have ${totalPages} pages; at most ${max} are read`,
  );
}
