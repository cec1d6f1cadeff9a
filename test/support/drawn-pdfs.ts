/**
 * PDFs whose text is drawn the ways producers draw it beyond one run per line: Chinese and
 * Japanese through a CID font the PDF does not embed, addressed by a predefined Unicode
 * CMap, in horizontal or vertical writing.
 */

/** Which CID font collection and predefined CMap a script's text is addressed through. */
const COLLECTIONS = {
  ja: { ordering: 'Japan1', font: 'KozMinPr6N-Regular', cmap: 'UniJIS-UTF16' },
  zh: { ordering: 'GB1', font: 'AdobeSongStd-Light', cmap: 'UniGB-UTF16' },
} as const;

/**
 * A one-page PDF of `lines` in a CID font it does not embed (glyphs come from the reader's
 * substitute; text from the CMap), written horizontally (lines top to bottom) or vertically
 * (columns right to left), 24 pt; `indents` starts lines or columns that many ems in.
 */
export function makeCidFontPdf(
  lines: readonly string[],
  language: keyof typeof COLLECTIONS,
  writing: 'horizontal' | 'vertical',
  indents: readonly number[] = [],
): Buffer {
  const { ordering, font, cmap } = COLLECTIONS[language];
  const hex = (text: string) => Buffer.from(text, 'utf16le').swap16().toString('hex');
  const placed = lines.map((line, i) => {
    const indent = 24 * (indents[i] ?? 0);
    return writing === 'vertical'
      ? `1 0 0 1 ${520 - i * 36} ${780 - indent} Tm <${hex(line)}> Tj`
      : `1 0 0 1 ${50 + indent} ${780 - i * 36} Tm <${hex(line)}> Tj`;
  });
  const content = `BT /F1 24 Tf\n${placed.join('\n')}\nET\n`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] ' +
      '/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}endstream`,
    `<< /Type /Font /Subtype /Type0 /BaseFont /${font} ` +
      `/Encoding /${cmap}-${writing === 'vertical' ? 'V' : 'H'} /DescendantFonts [6 0 R] >>`,
    `<< /Type /Font /Subtype /CIDFontType0 /BaseFont /${font} ` +
      `/CIDSystemInfo << /Registry (Adobe) /Ordering (${ordering}) /Supplement 4 >> ` +
      '/FontDescriptor 7 0 R /DW 1000 >>',
    `<< /Type /FontDescriptor /FontName /${font} /Flags 4 /FontBBox [-437 -340 1147 1317] ` +
      '/ItalicAngle 0 /Ascent 1317 /Descent -349 /CapHeight 742 /StemV 80 >>',
  ];
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
