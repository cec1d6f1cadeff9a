import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { CorruptDocumentError } from './document.errors.js';
import { DocumentLimitError, enforceLimit } from './document-limits.js';
import { MarkupDepthGauge } from './markup-depth.js';

/** Below this inflated size the ratio is not checked: a small file cannot exhaust anything. */
const RATIO_FLOOR_BYTES = 8 * 1024 * 1024;

export function openZip(bytes: Uint8Array): Promise<ZipFile> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(
      buffer,
      { lazyEntries: true, validateEntrySizes: true, autoClose: false },
      (error, zip) => (error ? reject(error) : resolve(zip)),
    ),
  );
}

/** Every entry of the central directory (nothing is inflated). */
export function listEntries(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', reject);
    zip.readEntry();
  });
}

/**
 * Streams one entry through the depth gauge. yauzl stops an entry that inflates past the
 * size its directory claims, so the claims checked before bound this too.
 */
function gaugeEntry(zip: ZipFile, entry: Entry, what: string, fileType: string): Promise<void> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(error);
      const gauge = new MarkupDepthGauge(what, true, fileType);
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        try {
          gauge.write(chunk);
        } catch (limit) {
          stream.destroy();
          reject(limit);
        }
      });
      stream.once('end', () => resolve());
      stream.once('error', reject);
    });
  });
}

/**
 * Checks a zip-based document (DOCX, PPTX, XLSX) before any reader inflates it: the inflated size and
 * compression ratio its central directory declares, then the nesting depth of its XML
 * parts named by `isMarkup` (none may declare a document type). Throws DocumentLimitError
 * or CorruptDocumentError.
 */
export async function checkZipDocument(
  bytes: Uint8Array,
  fileType: string,
  isMarkup: (entryName: string) => boolean,
): Promise<void> {
  let zip: ZipFile | undefined;
  try {
    zip = await openZip(bytes);
    const entries = await listEntries(zip);
    const inflated = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
    const name = fileType.toUpperCase();
    enforceLimit(
      'maxZipUncompressedBytes',
      inflated,
      (max) => `The ${name} inflates to ${inflated} bytes; at most ${max} bytes are read`,
    );
    if (inflated > RATIO_FLOOR_BYTES) {
      const ratio = Math.round(inflated / Math.max(1, bytes.byteLength));
      enforceLimit(
        'maxZipCompressionRatio',
        ratio,
        (max) => `The ${name} is compressed ${ratio}:1; at most ${max}:1 is read`,
      );
    }
    for (const entry of entries) {
      if (isMarkup(entry.fileName))
        await gaugeEntry(zip, entry, `${name} part ${entry.fileName}`, fileType);
    }
  } catch (error) {
    if (error instanceof DocumentLimitError || error instanceof CorruptDocumentError) throw error;
    throw new CorruptDocumentError(
      fileType,
      `The ${fileType.toUpperCase()} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    zip?.close();
  }
}
