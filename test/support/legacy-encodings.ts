/**
 * Text written in a legacy character encoding, for specs of what the loaders read. The
 * platform decodes these encodings (`TextDecoder`) but encodes only UTF-8, so each encoding's
 * table is built by decoding every one- and two-byte sequence it has (the characters of
 * everyday text; EUC-JP's and GB18030's longer sequences hold rarer ones) and reversed.
 */
const tables = new Map<string, Map<string, number[]>>();

function tableOf(encoding: string): Map<string, number[]> {
  const known = tables.get(encoding);
  if (known) return known;
  const decoder = new TextDecoder(encoding, { fatal: true });
  const table = new Map<string, number[]>();
  const add = (bytes: number[]) => {
    let text: string;
    try {
      text = decoder.decode(new Uint8Array(bytes));
    } catch {
      return;
    }
    if ([...text].length === 1 && text !== '\ufffd' && !table.has(text)) table.set(text, bytes);
  };
  for (let single = 0; single < 0x100; single++) add([single]);
  for (let lead = 0x81; lead < 0x100; lead++) {
    for (let trail = 0x40; trail < 0x100; trail++) add([lead, trail]);
  }
  tables.set(encoding, table);
  return table;
}

/**
 * `text` in `encoding` (a WHATWG label: shift_jis, euc-jp, iso-2022-jp, gb18030, big5,
 * euc-kr, windows-125x, iso-8859-x, koi8-r); throws on a character the encoding lacks.
 */
export function encodeLegacy(text: string, encoding: string): Buffer {
  if (encoding.toLowerCase() === 'iso-2022-jp') return encodeIso2022Jp(text);
  const table = tableOf(encoding);
  const bytes: number[] = [];
  for (const character of text) {
    const encoded = table.get(character);
    if (!encoded) throw new Error(`${encoding} has no ${character}`);
    bytes.push(...encoded);
  }
  return Buffer.from(bytes);
}

/** ISO-2022-JP: JIS X 0208 characters as EUC-JP's bytes less 0x80, between escapes. */
function encodeIso2022Jp(text: string): Buffer {
  const euc = tableOf('euc-jp');
  const bytes: number[] = [];
  let inJis = false;
  for (const character of text) {
    const encoded = euc.get(character);
    if (!encoded) throw new Error(`iso-2022-jp has no ${character}`);
    const jis = encoded.length === 2 && encoded[0] >= 0xa1;
    if (jis !== inJis) bytes.push(...(jis ? [0x1b, 0x24, 0x42] : [0x1b, 0x28, 0x42]));
    inJis = jis;
    bytes.push(...(jis ? encoded.map((byte) => byte - 0x80) : encoded));
  }
  if (inJis) bytes.push(0x1b, 0x28, 0x42);
  return Buffer.from(bytes);
}

/** `text` in UTF-16 with its byte-order mark, in either byte order. */
export function encodeUtf16(text: string, order: 'le' | 'be'): Buffer {
  const body = Buffer.from(text, 'utf16le');
  if (order === 'be') body.swap16();
  return Buffer.concat([Buffer.from(order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]), body]);
}
