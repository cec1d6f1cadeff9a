import JSZip from 'jszip';

/*
 * Slide decks and workbooks written part by part (Office Open XML, as PowerPoint and Excel
 * write them), so specs build exactly the structure they read: slide order apart from part
 * names, placeholders positioned by their layout, groups, tables, hidden slides and sheets,
 * shared and inline strings, dates, merged cells.
 */

const PRESENTATION_NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const RELATIONSHIPS_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const RELATIONSHIP = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const EMU_PER_INCH = 914_400;

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function relationships(entries: { id: string; type: string; target: string }[]): string {
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="${RELATIONSHIPS_NS}">` +
    entries
      .map(
        (e) => `<Relationship Id="${e.id}" Type="${RELATIONSHIP}/${e.type}" Target="${e.target}"/>`,
      )
      .join('') +
    '</Relationships>'
  );
}

/** A paragraph: its text, list level and bullet (`true` a bullet, `false` none, unset inherited). */
export interface SlideParagraph {
  text: string;
  level?: number;
  bullet?: boolean;
}

/** A shape of a slide; positions in inches from the slide's top-left corner. */
export type SlideShape =
  | { title: string; centred?: boolean; at?: [number, number] }
  | { body: (string | SlideParagraph)[]; at?: [number, number] }
  | { text: (string | SlideParagraph)[]; at: [number, number] }
  | { table: string[][]; at: [number, number]; merged?: [number, number][] }
  | { group: SlideShape[]; at: [number, number]; scale?: number; childAt?: [number, number] }
  | { picture: true; at: [number, number] };

export interface SlideSpec {
  shapes: SlideShape[];
  hidden?: boolean;
  notes?: string;
}

const emu = (inches: number) => Math.round(inches * EMU_PER_INCH);
const offset = (at: [number, number]) => `<a:off x="${emu(at[0])}" y="${emu(at[1])}"/>`;

function paragraphXml(entry: string | SlideParagraph): string {
  const p = typeof entry === 'string' ? { text: entry } : entry;
  const bullet =
    p.bullet === true ? '<a:buChar char="•"/>' : p.bullet === false ? '<a:buNone/>' : '';
  const properties =
    p.level !== undefined || bullet !== '' ? `<a:pPr lvl="${p.level ?? 0}">${bullet}</a:pPr>` : '';
  return `<a:p>${properties}<a:r><a:rPr lang="en-US"/><a:t>${escapeXml(p.text)}</a:t></a:r></a:p>`;
}

let shapeId = 2;
function shapeXml(shape: SlideShape): string {
  const id = shapeId++;
  const frame = (at?: [number, number]) =>
    at
      ? `<p:spPr><a:xfrm>${offset(at)}<a:ext cx="${emu(4)}" cy="${emu(1)}"/></a:xfrm></p:spPr>`
      : '<p:spPr/>';
  if ('title' in shape) {
    const type = shape.centred ? 'ctrTitle' : 'title';
    return `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="${type}"/></p:nvPr></p:nvSpPr>${frame(shape.at)}<p:txBody><a:bodyPr/>${paragraphXml(shape.title)}</p:txBody></p:sp>`;
  }
  if ('body' in shape) {
    return `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Content"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr>${frame(shape.at)}<p:txBody><a:bodyPr/>${shape.body.map(paragraphXml).join('')}</p:txBody></p:sp>`;
  }
  if ('text' in shape) {
    return `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="TextBox"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>${frame(shape.at)}<p:txBody><a:bodyPr/>${shape.text.map(paragraphXml).join('')}</p:txBody></p:sp>`;
  }
  if ('table' in shape) {
    const merged = new Set((shape.merged ?? []).map(([r, c]) => `${r},${c}`));
    const rows = shape.table
      .map(
        (cells, r) =>
          `<a:tr h="370840">${cells
            .map(
              (cell, c) =>
                `<a:tc${merged.has(`${r},${c}`) ? ' hMerge="1"' : ''}><a:txBody><a:bodyPr/>${paragraphXml(cell)}</a:txBody></a:tc>`,
            )
            .join('')}</a:tr>`,
      )
      .join('');
    const grid = (shape.table[0] ?? []).map(() => '<a:gridCol w="1000000"/>').join('');
    return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${id}" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm>${offset(shape.at)}<a:ext cx="${emu(6)}" cy="${emu(2)}"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblGrid>${grid}</a:tblGrid>${rows}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
  }
  if ('group' in shape) {
    const scale = shape.scale ?? 1;
    const childAt = shape.childAt ?? [0, 0];
    return `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="${id}" name="Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm>${offset(shape.at)}<a:ext cx="${emu(4 * scale)}" cy="${emu(4 * scale)}"/><a:chOff x="${emu(childAt[0])}" y="${emu(childAt[1])}"/><a:chExt cx="${emu(4)}" cy="${emu(4)}"/></a:xfrm></p:grpSpPr>${shape.group.map(shapeXml).join('')}</p:grpSp>`;
  }
  return `<p:pic><p:nvPicPr><p:cNvPr id="${id}" name="Picture"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill/><p:spPr><a:xfrm>${offset(shape.at)}<a:ext cx="${emu(1)}" cy="${emu(1)}"/></a:xfrm></p:spPr></p:pic>`;
}

const LAYOUT = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sldLayout ${PRESENTATION_NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>
<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp>
<p:sp><p:nvSpPr><p:cNvPr id="3" name="Content"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="${emu(0.5)}" y="${emu(1.6)}"/><a:ext cx="${emu(9)}" cy="${emu(3.5)}"/></a:xfrm></p:spPr></p:sp>
</p:spTree></p:cSld></p:sldLayout>`;
const MASTER = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sldMaster ${PRESENTATION_NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>
<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="${emu(0.5)}" y="${emu(0.3)}"/><a:ext cx="${emu(9)}" cy="${emu(1)}"/></a:xfrm></p:spPr></p:sp>
<p:sp><p:nvSpPr><p:cNvPr id="3" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="${emu(0.5)}" y="${emu(1.5)}"/><a:ext cx="${emu(9)}" cy="${emu(4)}"/></a:xfrm></p:spPr></p:sp>
</p:spTree></p:cSld></p:sldMaster>`;

/** The package parts every OOXML file opens with: its content types and its main part. */
function addPackage(zip: JSZip, mainPart: string, mainContentType: string): void {
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      `<Override PartName="/${mainPart}" ContentType="${mainContentType}"/></Types>`,
  );
  zip.file(
    '_rels/.rels',
    relationships([{ id: 'rId1', type: 'officeDocument', target: mainPart }]),
  );
}

/**
 * A PPTX of the slides, in that presentation order; `partOrder` names the slide part each
 * slide is written to (slide`n`.xml), so order by part name and by the presentation differ.
 * Slides are 10 x 5.625 inches (16:9) unless `size` says otherwise (inches).
 */
export async function makePptx(
  slides: SlideSpec[],
  options: {
    size?: [number, number];
    partOrder?: number[];
    extraParts?: Record<string, string>;
  } = {},
): Promise<Buffer> {
  const zip = new JSZip();
  const [width, height] = options.size ?? [10, 5.625];
  const partOf = (i: number) => options.partOrder?.[i] ?? i + 1;
  addPackage(
    zip,
    'ppt/presentation.xml',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
  );
  const slideIds = slides
    .map((_, i) => `<p:sldId id="${256 + i}" r:id="rIdS${partOf(i)}"/>`)
    .join('');
  zip.file(
    'ppt/presentation.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:presentation ${PRESENTATION_NS}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rIdM"/></p:sldMasterIdLst><p:sldIdLst>${slideIds}</p:sldIdLst><p:sldSz cx="${emu(width)}" cy="${emu(height)}"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`,
  );
  zip.file(
    'ppt/_rels/presentation.xml.rels',
    relationships([
      { id: 'rIdM', type: 'slideMaster', target: 'slideMasters/slideMaster1.xml' },
      ...slides.map((_, i) => ({
        id: `rIdS${partOf(i)}`,
        type: 'slide',
        target: `slides/slide${partOf(i)}.xml`,
      })),
    ]),
  );
  zip.file('ppt/slideMasters/slideMaster1.xml', MASTER);
  zip.file('ppt/slideLayouts/slideLayout1.xml', LAYOUT);
  zip.file(
    'ppt/slideLayouts/_rels/slideLayout1.xml.rels',
    relationships([
      { id: 'rId1', type: 'slideMaster', target: '../slideMasters/slideMaster1.xml' },
    ]),
  );
  slides.forEach((slide, i) => {
    const part = partOf(i);
    const show = slide.hidden ? ' show="0"' : '';
    zip.file(
      `ppt/slides/slide${part}.xml`,
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sld ${PRESENTATION_NS}${show}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${slide.shapes.map(shapeXml).join('')}</p:spTree></p:cSld></p:sld>`,
    );
    const rels = [{ id: 'rId1', type: 'slideLayout', target: '../slideLayouts/slideLayout1.xml' }];
    if (slide.notes !== undefined) {
      rels.push({ id: 'rId2', type: 'notesSlide', target: `../notesSlides/notesSlide${part}.xml` });
      zip.file(
        `ppt/notesSlides/notesSlide${part}.xml`,
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:notes ${PRESENTATION_NS}><p:cSld><p:spTree><p:sp><p:nvSpPr><p:cNvPr id="2" name="Notes"/><p:cNvSpPr/><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paragraphXml(slide.notes)}</p:txBody></p:sp></p:spTree></p:cSld></p:notes>`,
      );
    }
    zip.file(`ppt/slides/_rels/slide${part}.xml.rels`, relationships(rels));
  });
  for (const [name, content] of Object.entries(options.extraParts ?? {})) zip.file(name, content);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** A cell: text (a shared string), a number, a boolean, a date serial shown as a date, an inline string. */
export type SheetCell = string | number | boolean | null | { date: number } | { inline: string };

export interface SheetSpec {
  name: string;
  rows: SheetCell[][];
  hidden?: boolean;
  /** Merged ranges, e.g. `A1:C1`. */
  merges?: string[];
  /** Written as the sheet's `<dimension ref>`, whatever its cells are. */
  dimension?: string;
  /** The first row's number (rows before it are absent). */
  firstRow?: number;
}

const columnName = (index: number): string => {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
};

/** An XLSX of the sheets, strings shared, dates through the built-in date format 14. */
export async function makeXlsx(
  sheets: SheetSpec[],
  options: { date1904?: boolean; sheetXml?: Record<string, string> } = {},
): Promise<Buffer> {
  const zip = new JSZip();
  const strings: string[] = [];
  const shared = new Map<string, number>();
  const stringIndex = (text: string) => {
    if (!shared.has(text)) {
      shared.set(text, strings.length);
      strings.push(text);
    }
    return shared.get(text);
  };
  addPackage(
    zip,
    'xl/workbook.xml',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
  );
  const sheetEntries = sheets
    .map(
      (sheet, i) =>
        `<sheet name="${escapeXml(sheet.name)}" sheetId="${i + 1}"${sheet.hidden ? ' state="hidden"' : ''} r:id="rId${i + 1}"/>`,
    )
    .join('');
  zip.file(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${RELATIONSHIP}"><workbookPr${options.date1904 ? ' date1904="1"' : ''}/><sheets>${sheetEntries}</sheets></workbook>`,
  );
  sheets.forEach((sheet, i) => {
    const first = sheet.firstRow ?? 1;
    const rows = sheet.rows
      .map((cells, r) => {
        const row = first + r;
        const written = cells
          .map((cell, c) => {
            const ref = `${columnName(c)}${row}`;
            if (cell === null) return '';
            if (typeof cell === 'string')
              return `<c r="${ref}" t="s"><v>${stringIndex(cell)}</v></c>`;
            if (typeof cell === 'number') return `<c r="${ref}"><v>${cell}</v></c>`;
            if (typeof cell === 'boolean') return `<c r="${ref}" t="b"><v>${cell ? 1 : 0}</v></c>`;
            if ('date' in cell) return `<c r="${ref}" s="1"><v>${cell.date}</v></c>`;
            return `<c r="${ref}" t="inlineStr"><is><t>${escapeXml(cell.inline)}</t></is></c>`;
          })
          .join('');
        return `<row r="${row}">${written}</row>`;
      })
      .join('');
    const merges = sheet.merges?.length
      ? `<mergeCells count="${sheet.merges.length}">${sheet.merges.map((ref) => `<mergeCell ref="${ref}"/>`).join('')}</mergeCells>`
      : '';
    const dimension = sheet.dimension ? `<dimension ref="${sheet.dimension}"/>` : '';
    zip.file(
      `xl/worksheets/sheet${i + 1}.xml`,
      options.sheetXml?.[sheet.name] ??
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${dimension}<sheetData>${rows}</sheetData>${merges}</worksheet>`,
    );
  });
  zip.file(
    'xl/_rels/workbook.xml.rels',
    relationships([
      ...sheets.map((_, i) => ({
        id: `rId${i + 1}`,
        type: 'worksheet',
        target: `worksheets/sheet${i + 1}.xml`,
      })),
      { id: 'rIdStrings', type: 'sharedStrings', target: 'sharedStrings.xml' },
      { id: 'rIdStyles', type: 'styles', target: 'styles.xml' },
    ]),
  );
  zip.file(
    'xl/sharedStrings.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t xml:space="preserve">${escapeXml(s)}</t></si>`).join('')}</sst>`,
  );
  zip.file(
    'xl/styles.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>',
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** A worksheet part of `cells` numeric cells in rows of `width`. */
export function numericSheetXml(cells: number, width: number): string {
  const rows: string[] = [];
  for (let row = 1; row <= Math.ceil(cells / width); row++) {
    const written = Math.min(width, cells - (row - 1) * width);
    let cellsXml = '';
    for (let column = 0; column < written; column++) cellsXml += `<c><v>${column}</v></c>`;
    rows.push(`<row r="${row}">${cellsXml}</row>`);
  }
  return `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows.join('')}</sheetData></worksheet>`;
}
