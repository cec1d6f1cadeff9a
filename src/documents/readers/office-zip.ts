import type { Entry, ZipFile } from 'yauzl';
import { CorruptDocumentError } from './document.errors.js';
import { DocumentLimitError } from './document-limits.js';
import { listEntries, openZip } from './zip-limits.js';

function streamEntry(zip: ZipFile, entry: Entry, write: (chunk: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(error);
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        try {
          write(chunk);
        } catch (stop) {
          stream.destroy();
          reject(stop);
        }
      });
      stream.once('end', () => resolve());
      stream.once('error', reject);
    });
  });
}

function readEntry(zip: ZipFile, entry: Entry): Promise<string> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(error);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      stream.once('error', reject);
    });
  });
}

/** The parts of an Office zip, read on demand (after `checkZipDocument` bounded them). */
export interface OfficeZip {
  /** The text of a part, or undefined when the zip has no such part. */
  part(name: string): Promise<string | undefined>;
  /**
   * Streams a part's text to `write` chunk by chunk (false when the zip has no such part):
   * a large worksheet is never held whole, and an error `write` throws stops the inflating.
   */
  streamPart(name: string, write: (chunk: string) => void): Promise<boolean>;
  close(): void;
}

/** A broken zip or part, named as the format's reader error. */
export function officeError(fileType: string, error: unknown): Error {
  if (error instanceof DocumentLimitError || error instanceof CorruptDocumentError) return error;
  return new CorruptDocumentError(
    fileType,
    `The ${fileType.toUpperCase()} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}

/**
 * Opens a PPTX or XLSX for reading its parts by name. Part names are compared without case,
 * as Office Open XML names are (`[Content_Types].xml` may say `/PPT/Slides/...`).
 */
export async function openOfficeZip(bytes: Uint8Array, fileType: string): Promise<OfficeZip> {
  try {
    const zip = await openZip(bytes);
    const entries = new Map<string, Entry>();
    for (const entry of await listEntries(zip)) entries.set(entry.fileName.toLowerCase(), entry);
    return {
      async part(name) {
        const entry = entries.get(name.replace(/^\//, '').toLowerCase());
        if (!entry) return undefined;
        try {
          return await readEntry(zip, entry);
        } catch (error) {
          throw officeError(fileType, error);
        }
      },
      async streamPart(name, write) {
        const entry = entries.get(name.replace(/^\//, '').toLowerCase());
        if (!entry) return false;
        try {
          await streamEntry(zip, entry, write);
          return true;
        } catch (error) {
          throw officeError(fileType, error);
        }
      },
      close: () => zip.close(),
    };
  } catch (error) {
    throw officeError(fileType, error);
  }
}
