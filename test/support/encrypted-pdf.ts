import crypto from 'node:crypto';

/**
 * A one-page PDF encrypted with a user password by the PDF standard security handler
 * (revision 2: RC4 with a 40-bit key, ISO 32000-1 7.6.3, algorithms 2, 3 and 4), written
 * byte by byte: no library the tests can reach writes encrypted PDFs. Every reader must ask
 * for `userPassword` to open it; its text is `lines`, in Helvetica.
 */
const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

/** RC4 (node's OpenSSL 3 keeps it only in the legacy provider, so it is written out). */
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
    out[n] = data[n] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}

const md5 = (...parts: Buffer[]) => crypto.createHash('md5').update(Buffer.concat(parts)).digest();

function padded(password: string): Buffer {
  return Buffer.concat([Buffer.from(password, 'latin1'), PAD]).subarray(0, 32);
}

function pdfText(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}

export function makeEncryptedPdf(
  lines: string[],
  userPassword: string,
  ownerPassword = `${userPassword}-owner`,
): Buffer {
  const permissions = -4;
  const id = crypto.randomBytes(16);
  const owner = rc4(md5(padded(ownerPassword)).subarray(0, 5), padded(userPassword));
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const key = md5(padded(userPassword), owner, p, id).subarray(0, 5);
  const user = rc4(key, PAD);
  const objectKey = (num: number) =>
    md5(key, Buffer.from([num & 255, (num >> 8) & 255, (num >> 16) & 255, 0, 0])).subarray(0, 10);

  const content = Buffer.from(
    ['BT', '/F1 14 Tf', '72 720 Td', '18 TL', ...lines.map((l) => `(${pdfText(l)}) '`), 'ET'].join(
      '\n',
    ),
    'latin1',
  );
  const encrypted = rc4(objectKey(5), content);
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    ),
    Buffer.from(
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    ),
    Buffer.concat([
      Buffer.from(`<< /Length ${encrypted.length} >>\nstream\n`),
      encrypted,
      Buffer.from('\nendstream'),
    ]),
    Buffer.from(
      `<< /Filter /Standard /V 1 /R 2 /O <${owner.toString('hex')}> /U <${user.toString('hex')}> /P ${permissions} >>`,
    ),
  ];
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = chunks[0].length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    chunks.push(chunk);
    offset += chunk.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt 6 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>] >>`,
    'startxref',
    String(offset),
    '%%EOF',
    '',
  ].join('\n');
  chunks.push(Buffer.from(xref));
  return Buffer.concat(chunks);
}
