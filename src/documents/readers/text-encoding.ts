import chardet from 'chardet';

/**
 * The character encoding of text that carries no magic number (plain text, Markdown, HTML).
 * In order: a byte-order mark; UTF-16 by the NUL bytes of its Latin characters
 * (`unmarkedUtf16Order`); UTF-8 when the bytes are valid UTF-8 (text in another
 * encoding beyond ASCII practically never is); the charset an HTML or XML document declares
 * in its first bytes; else the encoding a maintained detector (`chardet`, the byte statistics
 * of each legacy encoding: Shift_JIS, EUC-JP, GB18030, Big5, EUC-KR, ISO-8859-x,
 * Windows-125x, KOI8-R) finds likeliest. Decoding is the platform's (`TextDecoder`, WHATWG
 * labels). Windows-1252 stays the answer when nothing else reads the bytes.
 */

/** Bytes the detector reads: enough for its statistics, bounded for a large file. */
const DETECTION_SAMPLE = 64 * 1024;
/** Where a document's own declaration must stand (as HTML's prescan looks for it). */
const DECLARATION_SAMPLE = 1024;
const FALLBACK = 'windows-1252';
const ESCAPE = '\u001b';

/** The UTF-16 byte order a byte-order mark at the start announces, if any. */
export function utf16Order(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (bytes.length < 2) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** Bytes read to tell UTF-16 without a byte-order mark by where its NUL bytes fall. */
const UTF16_SAMPLE = 4096;

/**
 * The UTF-16 byte order of text written without a byte-order mark (exports of some Windows
 * programs, text cut from a UTF-16 file), told by its NUL bytes: every character of the
 * Basic Latin and Latin-1 blocks (spaces, line breaks, digits, punctuation, and so every
 * text in a Latin script) has a NUL high byte, which falls on odd offsets in little-endian
 * order and on even ones in big-endian order; text in an 8-bit or multi-byte encoding has
 * no NUL byte at all. NULs on one side (at least one code unit in a hundred) and hardly any
 * on the other are UTF-16 in that order.
 */
export function unmarkedUtf16Order(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (bytes.length < 4 || bytes.length % 2 !== 0) return undefined;
  const sample = bytes.subarray(0, Math.min(bytes.length, UTF16_SAMPLE));
  let even = 0;
  let odd = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] !== 0) continue;
    if (i % 2 === 0) even++;
    else odd++;
  }
  const units = sample.length / 2;
  const enough = (count: number) => count >= Math.max(2, units / 100);
  // A character whose low byte is 0 (U+4E00, U+0100) puts a NUL on the other side too.
  if (enough(odd) && even <= odd / 10) return 'utf-16le';
  if (enough(even) && odd <= even / 10) return 'utf-16be';
  return undefined;
}

/**
 * A decoder for `label` when the platform knows it as an ASCII-compatible legacy encoding:
 * not UTF-8 or UTF-16 (those were tried by their own rules) and not WHATWG's "replacement"
 * (ISO-2022-KR and other labels browsers refuse to decode).
 */
function legacyDecoder(
  label: string | null | undefined,
): InstanceType<typeof TextDecoder> | undefined {
  if (!label) return undefined;
  try {
    const decoder = new TextDecoder(label.trim().toLowerCase());
    return ['utf-8', 'utf-16le', 'utf-16be', 'replacement'].includes(decoder.encoding)
      ? undefined
      : decoder;
  } catch {
    return undefined;
  }
}

/**
 * The charset an HTML `<meta charset>` / `<meta http-equiv="Content-Type" content="...;
 * charset=...">` or an XML declaration's `encoding` names in the first bytes. Declarations
 * are ASCII in every encoding a document may declare this way.
 */
export function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, DECLARATION_SAMPLE));
  const xml = /^\s*<\?xml[^>]*\sencoding\s*=\s*["']([\w.:-]+)["']/i.exec(head);
  if (xml) return xml[1];
  for (const meta of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const found = /\bcharset\s*=\s*["']?\s*([\w.:-]+)/i.exec(meta);
    if (found) return found[1];
  }
  return undefined;
}

/** The text of bytes that are not UTF-8, in the encoding they declare or are detected in. */
function decodeLegacy(bytes: Uint8Array): string {
  const decoder =
    legacyDecoder(declaredCharset(bytes)) ??
    legacyDecoder(chardet.detect(bytes.subarray(0, DETECTION_SAMPLE))) ??
    new TextDecoder(FALLBACK);
  return decoder.decode(bytes);
}

/**
 * The text of `bytes` (see the top of the file); undefined for bytes a UTF-16 byte-order
 * mark announces that are not UTF-16 (an odd length, unpaired surrogates).
 */
export function decodeTextBytes(bytes: Uint8Array): string | undefined {
  const utf16 = utf16Order(bytes);
  if (utf16) {
    try {
      return new TextDecoder(utf16, { fatal: true }).decode(bytes.subarray(2));
    } catch {
      return undefined;
    }
  }
  const unmarked = unmarkedUtf16Order(bytes);
  if (unmarked) {
    try {
      return new TextDecoder(unmarked, { fatal: true }).decode(bytes);
    } catch {
      // Not UTF-16 after all (unpaired surrogates): read by the rules below.
    }
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return decodeLegacy(bytes);
  }
  // ISO-2022 text (Japanese mail and old web pages) is 7-bit, so valid UTF-8: its escape
  // sequences switch character sets and tell it apart.
  return text.includes(ESCAPE) ? decodeLegacy(bytes) : text;
}
