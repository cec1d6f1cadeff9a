/**
 * The real fillable forms of bench/edit-forms/manifest.json (source and licence listed
 * there), extracted from pinned PyPI source distributions into .cache/edit-forms by
 * scripts/fetch-edit-forms.mjs, and the generated
 * documents the edit specs and bench fill: a flat PDF form and a DOCX with placeholders.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';

export type RealFormId =
  'libreoffice-form' | 'openoffice-form-test' | 'va-21-0966' | 'dd-293' | 'irs-1040nr-2007';

const FILES: Record<RealFormId, string> = {
  'libreoffice-form': 'libreoffice-form.pdf',
  'openoffice-form-test': 'FormTestFromOo.pdf',
  // United States government forms (public domain), from pikepdf's source distribution.
  'va-21-0966': 'va-21-0966.pdf',
  'dd-293': 'dd-293.pdf',
  // An IRS tax form (public domain), from pdfminer's source distribution.
  'irs-1040nr-2007': 'irs-f1040nr-2007.pdf',
};

/** A real form's bytes; fetched into the cache first (fails, naming why, if it cannot be). */
export function realForm(id: RealFormId): Buffer {
  const root = process.cwd();
  const file = path.join(root, '.cache', 'edit-forms', FILES[id]);
  if (!fs.existsSync(file)) {
    execFileSync(
      process.execPath,
      [path.join(root, 'scripts', 'fetch-edit-forms.mjs'), '--strict'],
      {
        stdio: 'inherit',
      },
    );
  }
  return fs.readFileSync(file);
}

/** A box of a flat form, as form_schema writes it (fractions of the page, top-left origin). */
export interface FlatBox {
  label: string;
  type: 'text' | 'checkbox';
  page: number;
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * A flat (field-less) PDF form: printed labels with empty boxes drawn after them, and the
 * `form_schema` boxes of those places. US Letter, Helvetica.
 */
export async function makeFlatForm(
  labels: { label: string; type: 'text' | 'checkbox'; width?: number }[],
): Promise<{ bytes: Buffer; boxes: FlatBox[] }> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  page.drawText('Application form', { x: 50, y: 740, size: 16, font });
  const boxes: FlatBox[] = [];
  labels.forEach((entry, i) => {
    const y = 690 - i * 40;
    page.drawText(entry.label, { x: 50, y: y + 4, size: 11, font });
    const x = 230;
    const width = entry.type === 'checkbox' ? 14 : (entry.width ?? 300);
    const height = entry.type === 'checkbox' ? 14 : 20;
    page.drawRectangle({ x, y, width, height, borderWidth: 0.8 });
    boxes.push({
      label: entry.label,
      type: entry.type,
      page: 1,
      left: x / 612,
      top: 1 - (y + height) / 792,
      width: width / 612,
      height: height / 792,
    });
  });
  return { bytes: Buffer.from(await pdf.save()), boxes };
}

/** A DOCX whose paragraphs carry placeholders: "{{name}}", "[Start date]", "Label: ____", "☐ X". */
export async function makePlaceholderDocx(paragraphs: string[][]): Promise<Buffer> {
  const doc = new Document({
    sections: [
      {
        // Each inner array is one paragraph whose runs are split where given, as Word does.
        children: paragraphs.map(
          (runs) => new Paragraph({ children: runs.map((text) => new TextRun(text)) }),
        ),
      },
    ],
  });
  return Buffer.from(await Packer.toBuffer(doc));
}

/** A content control of a Word form, as Word writes it (w:sdt). */
export type ContentControl =
  | { kind: 'text'; alias: string; tag: string }
  | { kind: 'checkbox'; alias: string; tag: string }
  | { kind: 'dropdown'; alias: string; tag: string; items: string[] }
  | { kind: 'date'; alias: string; tag: string; format: string };

function controlXml(control: ContentControl): string {
  const head = `<w:alias w:val="${control.alias}"/><w:tag w:val="${control.tag}"/>`;
  const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
  switch (control.kind) {
    case 'text':
      return `<w:sdt><w:sdtPr>${head}<w:showingPlcHdr/><w:text/></w:sdtPr><w:sdtContent>${run('Click or tap here to enter text.')}</w:sdtContent></w:sdt>`;
    case 'checkbox':
      return `<w:sdt><w:sdtPr>${head}<w14:checkbox><w14:checked w14:val="0"/><w14:checkedState w14:val="2612" w14:font="MS Gothic"/><w14:uncheckedState w14:val="2610" w14:font="MS Gothic"/></w14:checkbox></w:sdtPr><w:sdtContent>${run('☐')}</w:sdtContent></w:sdt>`;
    case 'dropdown':
      return `<w:sdt><w:sdtPr>${head}<w:showingPlcHdr/><w:dropDownList>${control.items
        .map((item) => `<w:listItem w:displayText="${item}" w:value="${item}"/>`)
        .join(
          '',
        )}</w:dropDownList></w:sdtPr><w:sdtContent>${run('Choose an item.')}</w:sdtContent></w:sdt>`;
    case 'date':
      return `<w:sdt><w:sdtPr>${head}<w:showingPlcHdr/><w:date><w:dateFormat w:val="${control.format}"/><w:lid w:val="en-GB"/></w:date></w:sdtPr><w:sdtContent>${run('Click or tap to enter a date.')}</w:sdtContent></w:sdt>`;
  }
}

/**
 * A Word form: one paragraph per control, its caption printed before the control ("Employee
 * name: [control]"), the controls written as Word writes them (text, check box, drop-down
 * list, date picker).
 */
export async function makeContentControlDocx(
  rows: { caption: string; control: ContentControl }[],
): Promise<Buffer> {
  const base = await makePlaceholderDocx(rows.map((_, i) => [`@@control-${i}@@`]));
  const zip = await JSZip.loadAsync(base);
  let xml = await zip.file('word/document.xml')!.async('string');
  rows.forEach(({ caption, control }, i) => {
    xml = xml.replace(
      new RegExp(`<w:r>(?:(?!<w:r>).)*?@@control-${i}@@.*?</w:r>`, 'su'),
      `<w:r><w:t xml:space="preserve">${caption} </w:t></w:r>${controlXml(control)}`,
    );
  });
  zip.file('word/document.xml', xml);
  return Buffer.from(await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
}
