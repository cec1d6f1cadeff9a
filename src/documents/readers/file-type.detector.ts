import { fileTypeFromBuffer } from 'file-type';
import { UnsupportedDocumentError } from './document.errors.js';
import type { DocumentFileType } from './document.types.js';
import { decodeTextBytes, utf16Order } from './text-encoding.js';

interface DetectedType {
  fileType: DocumentFileType;
  /** MIME type for the detected content, e.g. `image/png`, `text/markdown`. */
  mime: string;
}

/** Images sharp (libvips) decodes from its prebuilt binaries (see image.decoder.ts). */
const IMAGE_MIMES = new Set([
  'image/png',
  'image/jpeg',
  'image/tiff',
  'image/webp',
  'image/gif',
  'image/avif',
]);
/** What the refusals of other content list. */
const SUPPORTED =
  'supported: PDF, DOCX, PPTX, XLSX, CSV, PNG, JPEG, TIFF, WebP, GIF, AVIF, plain text, Markdown, HTML';
const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const PPTX_MIME = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Office Open XML formats read, by their MIME type and by the extension naming one. */
const OFFICE_TYPES: Record<string, { fileType: DocumentFileType; mime: string }> = {
  docx: { fileType: 'docx', mime: DOCX_MIME },
  pptx: { fileType: 'pptx', mime: PPTX_MIME },
  xlsx: { fileType: 'xlsx', mime: XLSX_MIME },
};
const OFFICE_MIMES = new Map(Object.values(OFFICE_TYPES).map((type) => [type.mime, type]));
/** Macro-enabled and template variants hold the same parts as the formats they vary. */
const OFFICE_VARIANT_MIMES: Record<string, { fileType: DocumentFileType; mime: string }> = {
  'application/vnd.ms-powerpoint.presentation.macroenabled.12': OFFICE_TYPES.pptx,
  'application/vnd.ms-excel.sheet.macroenabled.12': OFFICE_TYPES.xlsx,
  'application/vnd.ms-excel.template.macroenabled.12': OFFICE_TYPES.xlsx,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.template': OFFICE_TYPES.xlsx,
  'application/vnd.openxmlformats-officedocument.presentationml.template': OFFICE_TYPES.pptx,
  'application/vnd.ms-powerpoint.template.macroenabled.12': OFFICE_TYPES.pptx,
};
const CSV_HINTS = new Set(['csv', 'tsv', 'tab']);
const CSV_CONTENT_TYPES = new Set(['text/csv', 'text/tab-separated-values', 'application/csv']);
const MARKDOWN_HINTS = new Set(['md', 'markdown', 'mdown', 'mkd']);
const HTML_HINTS = new Set(['html', 'htm', 'xhtml']);

/** `report.MD`, `.md` and `md` all give `md`. */
function extensionOf(hint: string | undefined): string | undefined {
  if (!hint) return undefined;
  const base = hint.split(/[?#]/)[0].split('/').pop() ?? '';
  const dot = base.lastIndexOf('.');
  const ext = (dot >= 0 ? base.slice(dot + 1) : base).trim().toLowerCase();
  return ext === '' ? undefined : ext;
}

/**
 * Decodes bytes that carry no magic number as text, in the encoding they declare or are
 * detected in (text-encoding.ts). Returns undefined for binary content, so unknown binaries
 * are refused rather than read as garbage.
 */
export function decodeText(bytes: Uint8Array): string | undefined {
  const text = decodeTextBytes(bytes);
  if (text === undefined) return undefined;
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) return undefined;
    if (code < 32 && code !== 9 && code !== 10 && code !== 13 && code !== 12) control++;
  }
  if (control > Math.max(2, text.length * 0.01)) return undefined;
  return text;
}

/**
 * An SVG image: its root element, after any XML declaration, comments and document type, is
 * `svg`. Its text is drawing instructions (and may reference other files), not the picture.
 */
function looksLikeSvg(text: string): boolean {
  const head = text
    .slice(0, 4096)
    .replace(/^\s*(<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!doctype[^>[]*(\[[\s\S]*?\])?\s*>|\s)*/i, '');
  return /^<(?:[\w.-]+:)?svg[\s>/]/i.test(head);
}

function looksLikeHtml(text: string): boolean {
  const head = text.slice(0, 2048).trimStart().toLowerCase();
  return (
    head.startsWith('<!doctype html') ||
    head.startsWith('<html') ||
    /^<\?xml[^>]*>\s*(<!doctype html|<html)/.test(head) ||
    (/<(head|body)[\s>]/.test(head) && /<\/(p|div|body|title)>/.test(text.slice(0, 8192)))
  );
}

/** A content type's media type alone, lower-cased (`text/CSV; charset=utf-8` -> `text/csv`). */
function mediaType(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0].trim().toLowerCase() || undefined;
}

/** Whether text is read as delimited values: named `.csv`/`.tsv`, or served as `text/csv`. */
export function isDelimitedText(hint?: string, contentType?: string): boolean {
  const ext = extensionOf(hint);
  return (
    (ext !== undefined && CSV_HINTS.has(ext)) || CSV_CONTENT_TYPES.has(mediaType(contentType) ?? '')
  );
}

/**
 * Detects the document type from content (magic bytes) first; the name/extension hint and
 * a URL input's content type only decide between text flavours (plain text vs Markdown vs
 * HTML vs CSV), which carry no magic, and name a zip cut short.
 */
export async function detectDocumentType(
  bytes: Uint8Array,
  hint?: string,
  contentType?: string,
): Promise<DetectedType> {
  if (bytes.length === 0) throw new UnsupportedDocumentError('The document is empty');
  // UTF-16 text (Windows' "Unicode" text and Excel's exports) opens with a byte-order mark,
  // and FF FE also opens an MPEG audio frame: text that decodes whole is text first.
  const bomText = utf16Order(bytes) ? decodeText(bytes) : undefined;
  const detected = bomText === undefined ? await fileTypeFromBuffer(bytes) : undefined;
  if (detected) {
    if (detected.mime === 'application/pdf') return { fileType: 'pdf', mime: detected.mime };
    const office = OFFICE_MIMES.get(detected.mime) ?? OFFICE_VARIANT_MIMES[detected.mime];
    if (office) return office;
    // An Office file is known by its parts, listed in the zip's directory at its end: one cut
    // short reads as a bare zip. Named (or served) as one, it is read as one, so the answer
    // says it is broken.
    if (detected.mime === 'application/zip') {
      const named =
        OFFICE_TYPES[extensionOf(hint) ?? ''] ?? OFFICE_MIMES.get(mediaType(contentType) ?? '');
      if (named) return named;
    }
    if (IMAGE_MIMES.has(detected.mime)) return { fileType: 'image', mime: detected.mime };
    // file-type reports XHTML and other XML this way; only HTML is a document we read.
    if (detected.mime !== 'application/xml' && detected.mime !== 'text/xml') {
      throw new UnsupportedDocumentError(
        `Unsupported document type ${detected.mime} (.${detected.ext}); ${SUPPORTED}`,
        detected.mime,
      );
    }
  }
  const text = bomText ?? decodeText(bytes);
  if (text === undefined) {
    throw new UnsupportedDocumentError(`Unrecognised binary content; ${SUPPORTED}`);
  }
  if (looksLikeSvg(text)) {
    throw new UnsupportedDocumentError(
      `SVG images are not read: convert the image to PNG or PDF; ${SUPPORTED}`,
      'image/svg+xml',
    );
  }
  const ext = extensionOf(hint);
  if (isDelimitedText(hint, contentType)) return { fileType: 'csv', mime: 'text/csv' };
  if (looksLikeHtml(text) || (ext !== undefined && HTML_HINTS.has(ext))) {
    return { fileType: 'html', mime: 'text/html' };
  }
  if (ext !== undefined && MARKDOWN_HINTS.has(ext))
    return { fileType: 'md', mime: 'text/markdown' };
  return { fileType: 'txt', mime: 'text/plain' };
}
