import { PDFName, type PDFDocument, type PDFRef } from 'pdf-lib';

/**
 * A Helvetica font whose drawn bytes stand for other text through a ToUnicode map: the
 * page shows Helvetica's glyphs (their look does not matter to a reader), the text read is
 * `letters[byte]`, so specs can draw Arabic, Hebrew or any text without embedding a font.
 * Without `letters` the font is plain Helvetica in WinAnsi encoding. `glyphNames` names the
 * glyph of a byte in the font's encoding (a Differences array), as a producer names a
 * ligature glyph ("t_i"), with or without a `letters` entry for it.
 */
export function mappedHelvetica(
  pdf: PDFDocument,
  letters?: Record<string, string>,
  glyphNames?: Record<string, string>,
): PDFRef {
  const hex = (text: string) =>
    [...text].map((unit) => unit.charCodeAt(0).toString(16).padStart(4, '0')).join('');
  const entries = Object.entries(letters ?? {}).map(
    ([byte, text]) => `<${byte.charCodeAt(0).toString(16).padStart(2, '0')}> <${hex(text)}>`,
  );
  if (letters && !(' ' in letters)) entries.push('<20> <0020>');
  const cmap = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CMapName /Letters def /CMapType 2 def',
    '1 begincodespacerange <00> <ff> endcodespacerange',
    `${entries.length} beginbfchar`,
    ...entries,
    'endbfchar endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  return pdf.context.register(
    pdf.context.obj({
      Type: 'Font',
      Subtype: 'Type1',
      BaseFont: 'Helvetica',
      Encoding: glyphNames ? namedEncoding(pdf, glyphNames) : 'WinAnsiEncoding',
      ...(letters ? { ToUnicode: pdf.context.register(pdf.context.stream(cmap)) } : {}),
    }),
  );
}

/** WinAnsi encoding with the glyph of each byte of `names` renamed. */
function namedEncoding(pdf: PDFDocument, names: Record<string, string>) {
  const differences = Object.entries(names).flatMap(([byte, name]) => [
    byte.charCodeAt(0),
    PDFName.of(name),
  ]);
  return pdf.context.obj({
    Type: 'Encoding',
    BaseEncoding: 'WinAnsiEncoding',
    Differences: differences,
  });
}
