// Hostile documents for the benchmarks, generated when they run (never stored in the
// repository): a PNG whose header declares hundreds of megapixels, a DOCX that inflates to
// gigabytes.
import zlib from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffers) {
  let crc = 0xffffffff;
  for (const buffer of buffers)
    for (let i = 0; i < buffer.length; i++) crc = CRC_TABLE[(crc ^ buffer[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32([head.subarray(4), data]));
  return Buffer.concat([head, data, crc]);
}

/** A one-colour 8-bit grey PNG of side x side pixels (400 megapixels at 20,000). */
export function pngBomb(side) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const deflate = zlib.createDeflate({ level: 9 });
  const parts = [];
  deflate.on('data', (chunk) => parts.push(chunk));
  const row = Buffer.alloc(side + 1); // filter byte 0, then zero pixels
  const rowsPerWrite = 64;
  const block = Buffer.concat(Array.from({ length: rowsPerWrite }, () => row));
  for (let y = 0; y < side; y += rowsPerWrite) deflate.write(block);
  return new Promise((resolve) => {
    deflate.end(() => {
      const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
      resolve(
        Buffer.concat([
          signature,
          pngChunk('IHDR', ihdr),
          pngChunk('IDAT', Buffer.concat(parts)),
          pngChunk('IEND', Buffer.alloc(0)),
        ]),
      );
    });
  });
}

/** Raw deflate of `pieces` streamed (the bench never holds the inflated bomb whole). */
function deflateRaw(pieces) {
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const parts = [];
  deflate.on('data', (chunk) => parts.push(chunk));
  for (const piece of pieces) deflate.write(piece);
  return new Promise((resolve) => deflate.end(() => resolve(Buffer.concat(parts))));
}

/** A .docx whose word/document.xml inflates to `bytes` bytes. */
export async function docxBomb(bytes) {
  const open = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>',
  );
  const close = Buffer.from('</w:t></w:r></w:p></w:body></w:document>');
  const filler = Buffer.alloc(1024 * 1024, 'A');
  const fillers = Math.ceil((bytes - open.length - close.length) / filler.length);
  const pieces = [open, ...Array.from({ length: fillers }, () => filler), close];
  const entries = [
    [
      '[Content_Types].xml',
      [
        Buffer.from(
          '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
        ),
      ],
    ],
    ['word/document.xml', pieces],
  ];
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const size = content.reduce((n, b) => n + b.length, 0);
    const data = await deflateRaw(content);
    const nameBytes = Buffer.from(name);
    const crc = crc32(content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const centralBytes = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralBytes, end]);
}
