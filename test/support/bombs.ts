import zlib from 'node:zlib';

/** Deflates `count` copies of each chunk in turn (raw or zlib-wrapped), never all at once. */
async function deflateRepeated(
  pieces: { chunk: Buffer; count: number }[],
  raw: boolean,
): Promise<{ data: Buffer; crc: number }> {
  const stream = raw ? zlib.createDeflateRaw({ level: 9 }) : zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  stream.on('data', (part: Buffer) => parts.push(part));
  const ended = new Promise<void>((resolve, reject) => {
    stream.once('end', resolve);
    stream.once('error', reject);
  });
  let crc = 0;
  for (const { chunk, count } of pieces) {
    for (let i = 0; i < count; i++) {
      crc = zlib.crc32(chunk, crc);
      if (!stream.write(chunk)) await new Promise((resolve) => stream.once('drain', resolve));
    }
  }
  stream.end();
  await ended;
  return { data: Buffer.concat(parts), crc };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A real PNG of one colour (1-bit greyscale, every row black), `width` x `height` pixels:
 * 60,000 x 60,000 compresses to about half a megabyte and decodes to gigabytes.
 */
export async function makePngBomb(width: number, height: number): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const row = Buffer.alloc(1 + Math.ceil(width / 8)); // filter byte + packed pixels
  // Rows in batches of 100: one write per row made the stream's overhead dominate.
  const batch = Buffer.concat(Array<Buffer>(100).fill(row));
  const { data } = await deflateRepeated(
    [
      { chunk: batch, count: Math.floor(height / 100) },
      { chunk: row, count: height % 100 },
    ],
    false,
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', data),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

interface ZipEntry {
  name: string;
  method: 0 | 8;
  data: Buffer;
  crc: number;
  size: number;
}

function zipArchive(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';

/**
 * A DOCX-looking zip whose `word/document.xml` really inflates to about `inflatedBytes`
 * (repeated empty paragraphs, compressed ~1000:1), with honest sizes in its directory.
 */
export async function makeDocxBomb(inflatedBytes: number): Promise<Buffer> {
  const chunk = Buffer.from('<w:p/>'.repeat(174_763)); // ~1 MiB
  const count = Math.ceil(inflatedBytes / chunk.length);
  const { data, crc } = await deflateRepeated([{ chunk, count }], true);
  const types = Buffer.from(CONTENT_TYPES);
  return zipArchive([
    {
      name: '[Content_Types].xml',
      method: 0,
      data: types,
      crc: zlib.crc32(types),
      size: types.length,
    },
    { name: 'word/document.xml', method: 8, data, crc, size: chunk.length * count },
  ]);
}

/**
 * A PPTX- or XLSX-looking zip (by its part name, e.g. `xl/worksheets/sheet1.xml`) whose part
 * really inflates to about `inflatedBytes` of empty elements, compressed ~1000:1.
 */
export async function makeOfficeBomb(part: string, inflatedBytes: number): Promise<Buffer> {
  const chunk = Buffer.from('<a/>'.repeat(262_144)); // 1 MiB
  const count = Math.ceil(inflatedBytes / chunk.length);
  const { data, crc } = await deflateRepeated([{ chunk, count }], true);
  return zipArchive([{ name: part, method: 8, data, crc, size: chunk.length * count }]);
}

/** HTML nested `depth` elements deep (unclosed `<div>`s). */
export function makeDeepHtml(depth: number): Buffer {
  return Buffer.from(`<!doctype html><html><body>${'<div>'.repeat(depth)}deep</body></html>`);
}
